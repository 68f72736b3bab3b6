// A helper header of a helper header: helpers for both contexts, as MSVC
// programs keep them.
#ifndef AMP_DETAIL_SCALING_H
#define AMP_DETAIL_SCALING_H

inline float scale_of(int tile) restrict(amp, cpu) { return 1.0f / tile; }

// Line numbers survive lowering: this is line 9.
inline int line_here() restrict(amp, cpu) { return __LINE__; }

// Every pass (check, SPIR-V, PTX, host) reads this file under its own name.
static_assert(__LINE__ == 12 && __builtin_strcmp(__FILE_NAME__, "scaling.h") == 0,
              "the lowered copy keeps the header's name and lines");
#if defined(ERROR_IN_DEVICE_PASS) && defined(__CUDA_ARCH__)
#error "PTX pass"
#endif

#endif
