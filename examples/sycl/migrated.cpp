// A CUDA block reduction and scan as SYCLomatic migrates it: the kernel is a
// plain function taking `item_ct1` and the `__shared__` array as a pointer
// from a local_accessor, a __device__ helper reaches its work-item through
// sycl::ext::oneapi::this_work_item, and the hand-written tree sits next to
// the SYCL 2020 group algorithms that replace it. Results are checked
// against the host's. A second __device__ helper keeps its own __shared__
// array, which SYCLomatic's kernel-scope allocation turns into
// group_local_memory_for_overwrite inside the helper; the kernel calls it
// twice (CUDA has one array per function, DPC++ and slmc one per call path;
// the helper, like most, works with either). A warp reduction with
// __shfl_down_sync becomes shift_group_left over the sub-group, and the
// kernel requires 32-wide sub-groups ([[intel::reqd_sub_group_size(32)]], as
// SYCLomatic writes it), without which its sums would be wrong.
//
// The CUDA original:
//   __device__ float load_or_zero(const float *in, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     return i < n ? in[i] : 0.0f;
//   }
//   __global__ void block_sum(const float *in, float *out, float *prefix, int n) {
//     __shared__ float s[256];
//     ...
//   }
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int BLOCK = 256;

float load_or_zero(const float *in, int n) {
  auto item_ct1 = sycl::ext::oneapi::this_work_item::get_nd_item<3>();
  int i = item_ct1.get_group(2) * item_ct1.get_local_range(2) + item_ct1.get_local_id(2);
  return i < n ? in[i] : 0.0f;
}

float block_prefix(float v) {
  return sycl::inclusive_scan_over_group(
      sycl::ext::oneapi::this_work_item::get_work_group<3>(), v, sycl::plus<>());
}

// __device__ float block_max(float v) {
//   __shared__ float m[256]; ... tree maximum ...; return m[0]; }
float block_max(float v) {
  auto item_ct1 = sycl::ext::oneapi::this_work_item::get_nd_item<3>();
  auto &m = *sycl::ext::oneapi::group_local_memory_for_overwrite<float[BLOCK]>(
      item_ct1.get_group());
  int tid = item_ct1.get_local_id(2);
  m[tid] = v;
  item_ct1.barrier(sycl::access::fence_space::local_space);
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      m[tid] = sycl::fmax(m[tid], m[tid + stride]);
    item_ct1.barrier(sycl::access::fence_space::local_space);
  }
  return m[0];
}

// __device__ float warp_sum(float v) {
//   for (int offset = 16; offset > 0; offset /= 2)
//     v += __shfl_down_sync(0xffffffff, v, offset);
//   return v; }
float warp_sum(float v, const sycl::nd_item<3> &item_ct1) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += sycl::shift_group_left(item_ct1.get_sub_group(), v, offset);
  return v;
}

void block_sum(const float *in, float *out, float *prefix, float *warps, int n,
               const sycl::nd_item<3> &item_ct1, float *s) {
  int tid = item_ct1.get_local_id(2);
  float v = load_or_zero(in, n);
  s[tid] = v;
  item_ct1.barrier(sycl::access::fence_space::local_space);
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    item_ct1.barrier(sycl::access::fence_space::local_space);
  }
  float r = sycl::reduce_over_group(item_ct1.get_group(), v, sycl::plus<float>());
  float p = block_prefix(v);
  float hi = block_max(v), lo = -block_max(-v);
  float w = warp_sum(v, item_ct1);
  int i = item_ct1.get_group(2) * BLOCK + tid;
  if (i < n)
    prefix[i] = p;
  if (tid % 32 == 0)
    warps[i / 32] = w;
  if (tid == 0) {
    out[4 * item_ct1.get_group(2)] = s[0];
    out[4 * item_ct1.get_group(2) + 1] = r;
    out[4 * item_ct1.get_group(2) + 2] = hi;
    out[4 * item_ct1.get_group(2) + 3] = lo;
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  if (n <= 0) {
    std::fprintf(stderr, "migrated: size must be positive\n");
    return 2;
  }
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<float> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = float((i * 13) % 17) - 8.0f; // exact sums

  sycl::queue q_ct1;
  float *d_in = sycl::malloc_device<float>(n, q_ct1);
  float *d_out = sycl::malloc_device<float>(4 * blocks, q_ct1);
  float *d_prefix = sycl::malloc_device<float>(n, q_ct1);
  float *d_warps = sycl::malloc_device<float>(blocks * BLOCK / 32, q_ct1);
  q_ct1.memcpy(d_in, h_in.data(), n * sizeof(float)).wait();
  q_ct1.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> s_acc_ct1(sycl::range<1>(BLOCK), cgh);
    cgh.parallel_for(sycl::nd_range<3>(sycl::range<3>(1, 1, blocks) * sycl::range<3>(1, 1, BLOCK),
                                       sycl::range<3>(1, 1, BLOCK)),
                     [=](sycl::nd_item<3> item_ct1) [[intel::reqd_sub_group_size(32)]] {
                       block_sum(d_in, d_out, d_prefix, d_warps, n, item_ct1,
                                 s_acc_ct1.get_multi_ptr<sycl::access::decorated::no>().get());
                     });
  });
  std::vector<float> h_out(4 * blocks), h_prefix(n), h_warps(blocks * BLOCK / 32);
  q_ct1.memcpy(h_out.data(), d_out, 4 * blocks * sizeof(float));
  q_ct1.memcpy(h_warps.data(), d_warps, h_warps.size() * sizeof(float));
  q_ct1.memcpy(h_prefix.data(), d_prefix, n * sizeof(float)).wait();

  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    float sum = 0, run = 0, hi = 0, lo = 0; // the zero padding takes part
    for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < n; ++i) {
      hi = std::max(hi, h_in[i]);
      lo = std::min(lo, h_in[i]);
      sum += h_in[i];
      run += h_in[i];
      if (h_prefix[i] != run && bad++ < 5)
        std::printf("prefix[%d] = %g, want %g\n", i, h_prefix[i], run);
    }
    if (n - b * BLOCK < BLOCK) { // a partial block: zeros fill the rest
      hi = std::max(hi, 0.0f);
      lo = std::min(lo, 0.0f);
    }
    if ((h_out[4 * b] != sum || h_out[4 * b + 1] != sum) && bad++ < 5)
      std::printf("block %d: tree %g, reduce_over_group %g, want %g\n", b, h_out[4 * b],
                  h_out[4 * b + 1], sum);
    if ((h_out[4 * b + 2] != hi || h_out[4 * b + 3] != lo) && bad++ < 5)
      std::printf("block %d: max %g, min %g, want %g, %g\n", b, h_out[4 * b + 2],
                  h_out[4 * b + 3], hi, lo);
  }
  for (size_t w = 0; w < h_warps.size(); ++w) {
    float sum = 0;
    for (size_t i = w * 32; i < w * 32 + 32 && i < size_t(n); ++i)
      sum += h_in[i];
    if (h_warps[w] != sum && bad++ < 5)
      std::printf("warp %zu: %g, want %g\n", w, h_warps[w], sum);
  }
  std::printf("migrated block sum of %d floats: %s\n", n, bad ? "FAILED" : "PASSED");
  sycl::free(d_in, q_ct1);
  sycl::free(d_out, q_ct1);
  sycl::free(d_prefix, q_ct1);
  sycl::free(d_warps, q_ct1);
  return bad ? 1 : 0;
}
