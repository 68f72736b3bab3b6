# Headers that compiled programs include (dialect headers, slmc/offload.h,
# slmc/prelude.h) form slmc's resource directory: copied next to the
# libraries in the build tree, installed to <libdir>/slmc/include, so the
# same relative lookup works from bin/slmc++ and lib/slmcPlugin.so.
file(GLOB_RECURSE SLMC_RESOURCE_HEADERS CONFIGURE_DEPENDS
  RELATIVE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/include/*)
set(_slmc_res_out)
foreach(h ${SLMC_RESOURCE_HEADERS})
  set(_out ${PROJECT_BINARY_DIR}/${SLMC_RESOURCE_INCLUDE_DIR}/${h})
  add_custom_command(OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${PROJECT_SOURCE_DIR}/include/${h} ${_out}
    DEPENDS ${PROJECT_SOURCE_DIR}/include/${h} VERBATIM)
  list(APPEND _slmc_res_out ${_out})
endforeach()
add_custom_target(slmc-resource-headers ALL DEPENDS ${_slmc_res_out})

install(DIRECTORY include/ DESTINATION ${SLMC_RESOURCE_INCLUDE_DIR} COMPONENT headers)
install(FILES include/slmc/runtime.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/slmc
        COMPONENT runtime)
install(TARGETS slmrt EXPORT slmcTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(SLMC_ENABLE_COMPILER)
  install(TARGETS slmc++ RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT compiler)
  install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink slmc++
                  \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/slmc-cmc)"
          COMPONENT compiler)
  install(TARGETS slmcPlugin slmcCheck slmcWorkItemLoops slmcOffloadedCopy LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT compiler)
endif()

include(CMakePackageConfigHelpers)
install(EXPORT slmcTargets NAMESPACE slmc::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slmc COMPONENT runtime)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/slmcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/slmcConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slmc
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR
            SLMC_RESOURCE_INCLUDE_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/slmcConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/slmcConfig.cmake
              ${PROJECT_BINARY_DIR}/slmcConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slmc COMPONENT runtime)

# A relocatable .pc: the prefix is found from the file's own place.
file(RELATIVE_PATH SLMC_PC_TO_PREFIX
     /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/slmrt.pc.in
               ${PROJECT_BINARY_DIR}/slmrt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/slmrt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT runtime)
