// OpenCL host code for the PoCL column of benchmarks/cpu (opencl_twins.h).
#include "opencl_twins.h"

#if defined(SLMC_NO_OPENCL)
// Built without the OpenCL headers: the column says why it is empty.
namespace ocl {
bool init(const std::string &, int, std::string &, std::string &why) {
  why = "built without the OpenCL headers and loader (ocl-icd-opencl-dev, "
        "opencl-headers)";
  return false;
}
double matmul(const float *, const float *, float *, int) { return -1; }
double transpose(const float *, float *, int, int) { return -1; }
double reduce_cascade(const float *, int, float &) { return -1; }
double reduce_tree(const float *, int, float &) { return -1; }
double stencil(const float *, float *, int, int, int) { return -1; }
double scan(const int *, int *, int) { return -1; }
double histogram(const unsigned *, int, unsigned *) { return -1; }
double sycl_matmul(const float *, const float *, float *, int) { return -1; }
double cilk_matmul(const float *, const float *, float *, int) { return -1; }
double cm_nbody(const float *, const float *, float *, float *, int, int, float, float, float) {
  return -1;
}
} // namespace ocl
#else
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace ocl {
namespace {

cl_context ctx = nullptr;
cl_command_queue queue = nullptr;
cl_device_id dev = nullptr;
int repetitions = 3;
std::string dir;

struct Kernels {
  cl_kernel matmul, transpose, tree, cascade, cascade_final, jacobi,
      scan_blocks, add_offsets, histogram, sycl_matmul, cilk_matmul, nbody;
} k;

bool build(const char *file,
           std::vector<std::pair<const char *, cl_kernel *>> names,
           std::string &why, const std::string &options = "") {
  std::ifstream in(dir + "/" + file);
  if (!in) {
    why = "cannot read " + dir + "/" + file;
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string src = text.str();
  const char *p = src.c_str();
  cl_int err;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &p, nullptr, &err);
  // -I: the twins include twin.h, next to them.
  const std::string flags = "-cl-std=CL1.2 -I " + dir + " " + options;
  if (err != CL_SUCCESS || clBuildProgram(prog, 1, &dev, flags.c_str(),
                                          nullptr, nullptr) != CL_SUCCESS) {
    why = std::string("cannot build ") + file;
    return false;
  }
  for (auto &[name, out] : names) {
    *out = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
      why = std::string("no kernel ") + name + " in " + file;
      return false;
    }
  }
  return true;
}

cl_mem buffer(const void *host, size_t bytes) {
  cl_int err;
  return clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes,
                        const_cast<void *>(host), &err);
}
cl_mem scratch(size_t bytes) {
  cl_int err;
  return clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, nullptr,
                        &err);
}

template <class... A> void args(cl_kernel kern, const A &...a) {
  cl_uint i = 0;
  (clSetKernelArg(kern, i++, sizeof(A), &a), ...);
}

void run(cl_kernel kern, size_t global0, size_t local0, size_t global1 = 0,
         size_t local1 = 0) {
  size_t g[2] = {global0, global1}, l[2] = {local0, local1};
  clEnqueueNDRangeKernel(queue, kern, global1 ? 2 : 1, nullptr, g, l, 0,
                         nullptr, nullptr);
}

template <class F> double best(F f) {
  f();
  clFinish(queue);
  double ms = 1e300;
  for (int r = 0; r < repetitions; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    clFinish(queue);
    auto t1 = std::chrono::steady_clock::now();
    ms = std::min(ms,
                  std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return ms;
}

void read(cl_mem m, void *host, size_t bytes) {
  clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr);
}

size_t up(size_t v, size_t m) { return (v + m - 1) / m * m; }

} // namespace

bool init(const std::string &cl_dir, int reps, std::string &device,
          std::string &why) {
  dir = cl_dir;
  repetitions = reps;
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) {
    why = "no OpenCL platform";
    return false;
  }
  std::vector<cl_platform_id> platforms(n);
  clGetPlatformIDs(n, platforms.data(), nullptr);
  for (cl_platform_id p : platforms)
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &dev, nullptr) == CL_SUCCESS)
      break;
    else
      dev = nullptr;
  if (!dev) {
    why = "no OpenCL CPU device (install pocl-opencl-icd)";
    return false;
  }
  char name[256] = {}, platform[256] = {};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_platform_id pid;
  clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof pid, &pid, nullptr);
  clGetPlatformInfo(pid, CL_PLATFORM_VERSION, sizeof platform, platform,
                    nullptr);
  device = std::string(platform) + ", " + name;
  cl_int err;
  ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) {
    why = "cannot create an OpenCL context";
    return false;
  }
  queue = clCreateCommandQueue(ctx, dev, 0, &err);
  return build("matmul_tiled.cl", {{"matmul", &k.matmul}}, why) &&
         build("transpose.cl", {{"transpose", &k.transpose}}, why) &&
         build("reduction.cl",
               {{"tree_pass", &k.tree},
                {"cascade", &k.cascade},
                {"cascade_final", &k.cascade_final}},
               why) &&
         build("stencil.cl", {{"jacobi", &k.jacobi}}, why) &&
         build(
             "scan.cl",
             {{"scan_blocks", &k.scan_blocks}, {"add_offsets", &k.add_offsets}},
             why) &&
         build("histogram.cl", {{"histogram", &k.histogram}}, why) &&
         build("sycl_matmul.cl", {{"matmul", &k.sycl_matmul}}, why) &&
         build("nbody_cm.cl", {{"nbody", &k.nbody}}, why);
}

double cm_nbody(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
                int group, float delta_time, float damping, float softening_squared) {
  size_t bytes = size_t(n) * 4 * sizeof(float);
  cl_mem P = buffer(pos, bytes), V = buffer(vel, bytes), NP = buffer(new_pos, bytes),
         NV = buffer(new_vel, bytes);
  args(k.nbody, P, V, NP, NV, delta_time, damping, softening_squared, n);
  // 16 bodies per work-item, as in the C for Metal kernel.
  double ms = best([&] { run(k.nbody, size_t(n) / 16, size_t(group)); });
  read(NP, new_pos, bytes);
  read(NV, new_vel, bytes);
  for (cl_mem m : {P, V, NP, NV})
    clReleaseMemObject(m);
  return ms;
}

double sycl_matmul(const float *a, const float *b, float *c, int n) {
  size_t bytes = size_t(n) * n * sizeof(float);
  cl_mem A = buffer(a, bytes), B = buffer(b, bytes), C = buffer(c, bytes);
  cl_ulong un = cl_ulong(n);
  args(k.sycl_matmul, A, B, C, un, un);
  double ms = best([&] { run(k.sycl_matmul, n, 16, n, 16); });
  read(C, c, bytes);
  for (cl_mem m : {A, B, C})
    clReleaseMemObject(m);
  return ms;
}

double cilk_matmul(const float *a, const float *b, float *c, int n) {
  // The twin's size is a compile-time constant, as in the Cilk source.
  std::string why;
  if (!k.cilk_matmul &&
      !build("cilk_matmul.cl", {{"matmul_slm", &k.cilk_matmul}}, why,
             "-DMATMUL_N=" + std::to_string(n)))
    return -1;
  size_t bytes = size_t(n) * n * sizeof(float);
  cl_mem A = buffer(a, bytes), B = buffer(b, bytes), C = buffer(c, bytes);
  args(k.cilk_matmul, A, B, C);
  // One group of 256 work-items per 64x64 supertile.
  double ms = best([&] { run(k.cilk_matmul, size_t(n) / 64 * 256, 256, n / 64, 1); });
  read(C, c, bytes);
  for (cl_mem m : {A, B, C})
    clReleaseMemObject(m);
  return ms;
}

double matmul(const float *a, const float *b, float *c, int n) {
  size_t bytes = size_t(n) * n * sizeof(float);
  cl_mem A = buffer(a, bytes), B = buffer(b, bytes), C = buffer(c, bytes);
  args(k.matmul, A, B, C, n, n);
  double ms = best([&] { run(k.matmul, n, 16, n, 16); });
  read(C, c, bytes);
  for (cl_mem m : {A, B, C})
    clReleaseMemObject(m);
  return ms;
}

double transpose(const float *in, float *out, int rows, int cols) {
  size_t bytes = size_t(rows) * cols * sizeof(float);
  cl_mem I = buffer(in, bytes), O = buffer(out, bytes);
  args(k.transpose, I, O, rows, cols);
  double ms =
      best([&] { run(k.transpose, up(cols, 16), 16, up(rows, 16), 16); });
  read(O, out, bytes);
  clReleaseMemObject(I);
  clReleaseMemObject(O);
  return ms;
}

double reduce_cascade(const float *in, int n, float &sum) {
  cl_mem I = buffer(in, size_t(n) * sizeof(float)),
         P = scratch(64 * sizeof(float)), T = scratch(sizeof(float));
  args(k.cascade, I, P, n);
  args(k.cascade_final, P, T);
  double ms = best([&] {
    run(k.cascade, 64 * 512, 512);
    run(k.cascade_final, 64, 64);
  });
  read(T, &sum, sizeof(float));
  for (cl_mem m : {I, P, T})
    clReleaseMemObject(m);
  return ms;
}

double reduce_tree(const float *in, int n, float &sum) {
  size_t partials = (size_t(n) + 255) / 256;
  cl_mem I = buffer(in, size_t(n) * sizeof(float)),
         B = scratch(partials * sizeof(float)),
         C = scratch(partials * sizeof(float));
  cl_mem last = I;
  double ms = best([&] {
    cl_mem src = I, dst = B;
    for (int len = n; len > 1;) {
      int parts = (len + 255) / 256;
      args(k.tree, src, dst, len);
      run(k.tree, size_t(parts) * 256, 256);
      len = parts;
      src = dst;
      dst = dst == B ? C : B;
    }
    last = src;
  });
  read(last, &sum, sizeof(float));
  for (cl_mem m : {I, B, C})
    clReleaseMemObject(m);
  return ms;
}

double stencil(const float *grid, float *result, int rows, int cols,
               int sweeps) {
  size_t bytes = size_t(rows) * cols * sizeof(float);
  cl_mem A = scratch(bytes), B = scratch(bytes);
  double ms = best([&] {
    clEnqueueWriteBuffer(queue, A, CL_FALSE, 0, bytes, grid, 0, nullptr,
                         nullptr);
    for (int s = 0; s < sweeps; ++s) {
      args(k.jacobi, s % 2 ? B : A, s % 2 ? A : B, rows, cols);
      run(k.jacobi, up(cols, 16), 16, up(rows, 16), 16);
    }
  });
  read(sweeps % 2 ? B : A, result, bytes);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  return ms;
}

double scan(const int *in, int *out, int n) {
  // The levels of the C++ AMP example: block sums scanned recursively.
  std::vector<int> sizes;
  for (int blocks = (n + 511) / 512;; blocks = (blocks + 511) / 512) {
    sizes.push_back(blocks);
    if (blocks == 1)
      break;
  }
  std::vector<cl_mem> sums, offsets;
  for (int s : sizes) {
    sums.push_back(scratch(size_t(s) * sizeof(int)));
    offsets.push_back(scratch(size_t(s) * sizeof(int)));
  }
  cl_mem I = buffer(in, size_t(n) * sizeof(int)),
         O = buffer(out, size_t(n) * sizeof(int));
  double ms = best([&] {
    auto level = [&](auto &self, cl_mem input, cl_mem output, int len,
                     size_t lv) -> void {
      int blocks = (len + 511) / 512;
      args(k.scan_blocks, input, output, sums[lv], len);
      run(k.scan_blocks, size_t(blocks) * 256, 256);
      if (blocks == 1)
        return;
      self(self, sums[lv], offsets[lv], blocks, lv + 1);
      args(k.add_offsets, output, offsets[lv], len);
      run(k.add_offsets, up(len, 256), 256);
    };
    level(level, I, O, n, 0);
  });
  read(O, out, size_t(n) * sizeof(int));
  clReleaseMemObject(I);
  clReleaseMemObject(O);
  for (size_t i = 0; i < sums.size(); ++i) {
    clReleaseMemObject(sums[i]);
    clReleaseMemObject(offsets[i]);
  }
  return ms;
}

double histogram(const unsigned *words, int count, unsigned *bins) {
  cl_mem D = buffer(words, size_t(count) * 4), H = scratch(256 * 4);
  args(k.histogram, D, H, count);
  const unsigned zero = 0;
  double ms = best([&] {
    clEnqueueFillBuffer(queue, H, &zero, sizeof zero, 0, 256 * 4, 0, nullptr,
                        nullptr);
    run(k.histogram, 64 * 256, 256);
  });
  read(H, bins, 256 * 4);
  clReleaseMemObject(D);
  clReleaseMemObject(H);
  return ms;
}

} // namespace ocl
#endif
