// <amp_graphics.h>: texture<T, N> as a plain buffer on every backend. A box
// blur reads a texture<float_4, 2> through a texture_view<const float_4, 2>
// and writes another texture through a texture_view; textures held by
// reference in lambdas; copy to and from host memory, iterators and
// textures; unorm texels clamp; sampling with point and linear filtering
// and each address mode, values checked on the CPU fallback.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// CHECK: textures: 0 failures

#include <amp.h>
#include <amp_graphics.h>
#include <cmath>
#include <cstdio>
#include <vector>
using namespace concurrency;
using namespace concurrency::graphics;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s (line %d)\n", #c, __LINE__); ++failures; } } while (0)

int main() {
  const int H = 6, W = 8;
  std::vector<float_4> image(H * W);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      image[y * W + x] = float_4(float(x), float(y), 1.0f, float(x * y));
  texture<float_4, 2> src(H, W, image.begin(), image.end());
  texture<float_4, 2> dst(H, W);
  texture_view<const float_4, 2> in(src);
  texture_view<float_4, 2> out(dst);
  // 3x3 box blur, clamping at the edges.
  parallel_for_each(dst.extent, [=](index<2> i) restrict(amp) {
    float_4 sum;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int y = i[0] + dy, x = i[1] + dx;
        y = y < 0 ? 0 : y >= H ? H - 1 : y;
        x = x < 0 ? 0 : x >= W ? W - 1 : x;
        sum += in[index<2>(y, x)];
      }
    out.set(i, sum / float_4(9.0f));
  });
  std::vector<float_4> blurred(H * W);
  copy(dst, blurred.begin());
  // Interior: the mean of x over x-1..x+1 is x; of x*y is x*y.
  EXPECT(blurred[2 * W + 3] == float_4(3.0f, 2.0f, 1.0f, 6.0f));
  // Corner (0,0): x values 0,0,1 (three rows each) -> 1/3.
  EXPECT(std::fabs(blurred[0].x - 1.0f / 3.0f) < 1e-6f && blurred[0].z == 1.0f);

  // Textures by reference in a lambda: get and set.
  texture<int, 1> counts(16);
  parallel_for_each(counts.extent, [&counts](index<1> i) restrict(amp) {
    counts.set(i, i[0] * 3);
  });
  texture<int, 1> twice(16);
  parallel_for_each(twice.extent, [&](index<1> i) restrict(amp) {
    twice.set(i, counts[i] + counts(i[0]));
  });
  int host[16];
  copy(twice, host, unsigned(sizeof host));
  EXPECT(host[5] == 30 && host[15] == 90 && twice.get_data_length() == sizeof host);

  // From raw bytes, copies between textures, unorm texels.
  float raw[4] = {0.25f, 1.5f, -1.0f, 0.5f};
  texture<unorm, 1> u(4);
  copy(raw, unsigned(sizeof raw), u);  // bytes of floats: unorm holds a float
  texture<unorm, 1> u2(4);
  copy(u, u2);
  parallel_for_each(u2.extent, [&u2](index<1> i) restrict(amp) {
    u2.set(i, unorm(float(u2[i]) * 4.0f)); // clamps
  });
  std::vector<unorm> uv(4);
  copy(u2, uv.begin());
  EXPECT(float(uv[0]) == 1.0f && float(uv[3]) == 1.0f);
  writeonly_texture_view<unorm, 1> wo(u2);
  u.copy_to(wo);
  copy(u2, uv.begin());
  EXPECT(float(uv[0]) == 0.25f && u2.get_bits_per_scalar_element() == 32);

  // Sampling: 1-D texture 0, 10, 20, 30.
  float ramp[4] = {0, 10, 20, 30};
  texture<float, 1> t1(4, ramp, ramp + 4);
  texture_view<const float, 1> v1(t1);
  float s[8] = {};
  array_view<float, 1> sv(8, s);
  sampler lin(filter_linear, address_clamp);
  sampler wrap_point(filter_point, address_wrap);
  sampler border(address_border, float_4(-5.0f, 0, 0, 0));
  sampler mirror(filter_point, address_mirror);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    sv[0] = v1.sample(lin, 0.125f);          // centre of texel 0: 0
    sv[1] = v1.sample(lin, 0.25f);           // halfway 0..10: 5
    sv[2] = v1.sample(lin, 0.0f);            // clamp: 0
    sv[3] = v1.sample(wrap_point, 1.125f);   // wraps to texel 0: 0
    sv[4] = v1.sample(wrap_point, -0.125f);  // wraps to texel 3: 30
    sv[5] = v1.sample(border, 0.0f);         // half texel 0, half border: -2.5
    sv[6] = v1.sample(mirror, 1.125f);       // mirrors to texel 3: 30
    sv[7] = v1.sample<filter_linear, address_clamp>(0.875f); // texel 3: 30
  });
  sv.synchronize();
  const float want[8] = {0, 5, 0, 0, 30, -2.5f, 30, 30};
  for (int k = 0; k < 8; ++k)
    if (std::fabs(s[k] - want[k]) > 1e-5f) {
      std::printf("sample %d = %g, want %g\n", k, s[k], want[k]);
      ++failures;
    }
  // 2-D bilinear: the middle of the four texels at the origin of src.
  float_4 m[1];
  array_view<float_4, 1> mv(1, m);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    mv[0] = in.sample(sampler(filter_linear), float_2(1.0f / W, 1.0f / H));
  });
  mv.synchronize();
  EXPECT(m[0] == float_4(0.5f, 0.5f, 1.0f, 0.25f));

  // Packed formats and mipmaps cannot be plain buffers.
  bool thrown = false;
  try {
    texture<int, 2> packed(extent<2>(4, 4), 8u);
  } catch (const unsupported_feature &) {
    thrown = true;
  }
  EXPECT(thrown);
  std::printf("textures: %d failures\n", failures);
  return failures != 0;
}
