// Host code only; it does not include kernels.h.
const char *tile_sum_version() { return "1.0"; }
