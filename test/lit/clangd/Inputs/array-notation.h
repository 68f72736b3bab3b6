// Included by ../array-notation.cpp: array notation in a user header, read
// rewritten by every door that runs the pre-pass.
__attribute__((target(gfx))) static inline void scale_all(float *v, int n, float f) {
  v[0:n] *= f;
}

static inline float total(const float *v, int n) { return __sec_reduce_add(v[0:n]); }

#ifdef HEADER_ERROR
__declspec(target(gfx_kernel)) void in_header(float *out) {
  out[0:4] = 0.0f;
  __thread_group_local float outside[4];
}
#endif
