// Included with quotes by ../array-notation-host.cpp: found next to the
// source although the passes compile the pre-pass's copy elsewhere.
// (Array notation in headers is not rewritten: only the sources are.)
static inline float sq(float x) { return x * x; }
