// Included with quotes by ../array-notation-host.cpp. Array notation in a
// header is rewritten like the source's, in every pass.
static inline float sq(float x) { return x * x; }

// Adds `d` to the first `n` elements.
static inline void add_all(float *v, int n, float d) { v[0:n] += d; }
