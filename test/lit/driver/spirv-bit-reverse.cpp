// Reversing the bits of an integer in a kernel: the usual swap idiom (which
// LLVM's optimiser turns into llvm.bitreverse), __builtin_bitreverse* of
// every width, C++ AMP's direct3d::reversebits and a width that is not a
// whole number of bytes (a bit-field). LLVM's SPIR-V backend aborts on
// llvm.bitreverse (OpBitReverse is not available to OpenCL drivers), so
// slmc++ turns it back into shifts and masks for SPIR-V; PTX keeps `brev`.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s
// RUN: %if ocloc %{ %ocloc compile -q -spirv_input -file %t.spv -device tgllp --format zebin -output_no_suffix -output %t.tgllp %}

// SPIRV-NOT: OpBitReverse
// PTX: brev.b32
// CHECK: bit reverse: PASSED

#include <sycl/sycl.hpp>
#include <cstdint>
#include <cstdio>

static unsigned swap_idiom(unsigned x) {
  x = (x >> 16) | (x << 16);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  return x;
}

struct Narrow {
  unsigned v : 12;
};

// The reference: one bit at a time.
template <class T> static T reference(T x, unsigned bits) {
  T r = 0;
  for (unsigned i = 0; i < bits; ++i)
    r |= T((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

int main() {
  constexpr int n = 256;
  sycl::queue q;
  auto *in = sycl::malloc_shared<uint64_t>(n, q);
  auto *out = sycl::malloc_shared<uint64_t>(6 * n, q);
  for (int i = 0; i < n; ++i)
    in[i] = 0x9e3779b97f4a7c15ull * (i + 1);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     const int i = int(id[0]);
     const uint64_t x = in[i];
     out[6 * i + 0] = swap_idiom(unsigned(x));
     out[6 * i + 1] = __builtin_bitreverse8(uint8_t(x));
     out[6 * i + 2] = __builtin_bitreverse16(uint16_t(x));
     out[6 * i + 3] = __builtin_bitreverse32(uint32_t(x));
     out[6 * i + 4] = __builtin_bitreverse64(x);
     Narrow w{unsigned(x) & 0xfffu};
     unsigned r = 0;
     for (int b = 0; b < 12; ++b) // a 12-bit reversal, by the bit
       r |= ((w.v >> b) & 1u) << (11 - b);
     out[6 * i + 5] = r;
   }).wait();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t x = in[i];
    bad += out[6 * i + 0] != reference<uint32_t>(uint32_t(x), 32);
    bad += out[6 * i + 1] != reference<uint8_t>(uint8_t(x), 8);
    bad += out[6 * i + 2] != reference<uint16_t>(uint16_t(x), 16);
    bad += out[6 * i + 3] != reference<uint32_t>(uint32_t(x), 32);
    bad += out[6 * i + 4] != reference<uint64_t>(x, 64);
    bad += out[6 * i + 5] != reference<uint32_t>(uint32_t(x) & 0xfffu, 12);
  }
  std::printf("bit reverse: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  sycl::free(in, q);
  sycl::free(out, q);
  return bad != 0;
}
