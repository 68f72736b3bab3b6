// C++ AMP image blur through textures: a 3x3 Gaussian blur reads a
// texture<float_4, 2> through a read-only texture_view (samples at texel
// centres, clamped at the edges) and writes unorm_4 texels (clamped to
// [0, 1]) through a read-write texture_view; a second pass averages the
// unorm image's channels into a norm texture (clamped to [-1, 1]). Both are
// checked against the same computation on the host.
//
//   blur [width height]    (default 640 480)
#include <amp.h>
#include <amp_graphics.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;
using namespace concurrency::graphics;

static float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

int main(int argc, char **argv) {
  const int W = argc > 2 ? std::atoi(argv[1]) : 640;
  const int H = argc > 2 ? std::atoi(argv[2]) : 480;
  if (W < 1 || H < 1) {
    std::fprintf(stderr, "blur: the image must be at least 1x1\n");
    return 2;
  }
  // Pixels in [-0.25, 1.25): the output's unorm texels must clamp.
  std::vector<float_4> pixels(size_t(W) * H);
  unsigned seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1 << 24) * 1.5f - 0.25f;
  };
  for (float_4 &p : pixels) p = float_4(next(), next(), next(), 1.0f);

  texture<float_4, 2> image(H, W, pixels.begin(), pixels.end());
  texture<unorm_4, 2> blurred(H, W);
  texture<norm, 2> grey(H, W);
  texture_view<const float_4, 2> in(image);
  texture_view<unorm_4, 2> out(blurred);
  const float du = 1.0f / float(W), dv = 1.0f / float(H);

  parallel_for_each(image.extent, [=](index<2> i) restrict(amp) {
    const float u = (float(i[1]) + 0.5f) * du, v = (float(i[0]) + 0.5f) * dv;
    float_4 sum;
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const float w = float((2 - (x < 0 ? -x : x)) * (2 - (y < 0 ? -y : y))) / 16.0f;
        sum += float_4(w) *
               in.sample<filter_point, address_clamp>(float_2(u + float(x) * du, v + float(y) * dv));
      }
    out.set(i, unorm_4(sum));
  });
  texture_view<const unorm_4, 2> b(blurred);
  parallel_for_each(grey.extent, [=, &grey](index<2> i) restrict(amp) {
    const unorm_4 p = b[i];
    grey.set(i, norm(2.0f * (float(p.r) + float(p.g) + float(p.b)) / 3.0f - 1.0f));
  });

  std::vector<unorm_4> got(pixels.size());
  std::vector<norm> got_grey(pixels.size());
  copy(blurred, got.begin());
  copy(grey, got_grey.begin());

  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float want[4] = {0, 0, 0, 0};
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int sy = std::min(std::max(y + dy, 0), H - 1);
          const int sx = std::min(std::max(x + dx, 0), W - 1);
          const float w = float((2 - std::abs(dx)) * (2 - std::abs(dy))) / 16.0f;
          for (int c = 0; c < 4; ++c) want[c] += w * pixels[size_t(sy) * W + sx][c];
        }
      const unorm_4 &g = got[size_t(y) * W + x];
      float grey_want = 0;
      for (int c = 0; c < 4; ++c) {
        if (std::fabs(float(g[c]) - clamp01(want[c])) > 1e-5f) ++bad;
        if (c < 3) grey_want += float(g[c]);
      }
      grey_want = 2.0f * grey_want / 3.0f - 1.0f;
      if (std::fabs(float(got_grey[size_t(y) * W + x]) - grey_want) > 1e-5f) ++bad;
    }
  std::printf("blur %dx%d: %s (%d mismatches)\n", W, H, bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
