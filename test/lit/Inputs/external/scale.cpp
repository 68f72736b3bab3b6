// Defines the SYCL_EXTERNAL function that sycl/external-functions.cpp's
// kernel calls from another translation unit.
#include <sycl/sycl.hpp>

SYCL_EXTERNAL float scale(float x) { return 2.0f * x + 1.0f; }
