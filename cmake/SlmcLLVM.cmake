# Finds Debian's LLVM/Clang 22 and links against the shared libraries
# (libLLVM.so, libclang-cpp.so) to keep links fast on small machines.
find_package(LLVM REQUIRED CONFIG
  HINTS /usr/lib/llvm-22/lib/cmake/llvm)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "slmc needs LLVM/Clang 22, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}; "
                      "set LLVM_DIR to an LLVM 22 installation")
endif()
find_package(Clang REQUIRED CONFIG
  HINTS ${LLVM_DIR}/../clang /usr/lib/llvm-22/lib/cmake/clang)
message(STATUS "slmc: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_TOOLS_BINARY_DIR}")

set(SLMC_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR})
find_program(SLMC_CLANGXX clang++ HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(SLMC_LIT lit HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
find_program(SLMC_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)

add_library(slmc_llvm INTERFACE)
target_include_directories(slmc_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(_slmc_llvm_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
target_compile_options(slmc_llvm INTERFACE ${_slmc_llvm_defs})
if(NOT LLVM_ENABLE_RTTI)
  target_compile_options(slmc_llvm INTERFACE -fno-rtti)
endif()
target_link_libraries(slmc_llvm INTERFACE clang-cpp LLVM)
# ASan builds: LLVM's inlined allocators must not poison memory that the
# uninstrumented libraries hand out (the header says why).
if(SLMC_SANITIZE MATCHES "address" OR SLMC_FUZZ)
  target_compile_options(slmc_llvm INTERFACE
    "SHELL:-include ${CMAKE_CURRENT_LIST_DIR}/LLVMWithoutAsanPoisoning.h")
endif()
