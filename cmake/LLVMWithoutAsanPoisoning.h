// Included first in every file built against LLVM's and Clang's headers when
// slmc itself is built with AddressSanitizer (SLMC_SANITIZE, SLMC_FUZZ).
//
// LLVM's allocators (BumpPtrAllocator and the tables built on it) poison
// the unused rest of each slab and unpoison what they hand out, but only
// where LLVM was compiled with ASan. Debian's libLLVM and libclang-cpp are
// not, while their allocator code is also inlined into ours: an allocation
// made by our instrumented copy poisons memory that the libraries' copy
// then hands out without unpoisoning, and ASan reports the libraries'
// ordinary writes (seen in slmc-clangd's preamble builds). Our copy must
// behave as the libraries' does.
#ifndef SLMC_LLVM_WITHOUT_ASAN_POISONING_H
#define SLMC_LLVM_WITHOUT_ASAN_POISONING_H
#include "llvm/Support/Compiler.h"
#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif
