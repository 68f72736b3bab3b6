// What textures as plain buffers cannot honour is refused at compile time
// with a reason: gather, staging textures, Direct3D interop, sampling
// integer texels.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <amp.h>
#include <amp_graphics.h>
using namespace concurrency;
using namespace concurrency::graphics;

void f(texture<float, 2> &t, texture<int, 1> &ti, IUnknown *d3d) {
  texture_view<const float, 2> v(t);
  texture_view<const int, 1> vi(ti);
  parallel_for_each(t.extent, [=](index<2> i) restrict(amp) {
    float_4 g = v.gather_red(sampler(), float_2(0.5f, 0.5f)); // expected-error {{gather_red/green/blue/alpha are not implemented by slmc}}
    int x = vi.sample(sampler(), 0.5f); // expected-error@*:* {{sample() needs float, norm or unorm texels}}
    (void)g; (void)x;
  });
  texture<float, 2> staging(extent<2>(4, 4), 32u, accelerator().get_default_view(), accelerator().get_default_view()); // expected-error {{slmc has no staging textures}}
  texture<float, 1> d = graphics::direct3d::make_texture<float, 1>(accelerator().get_default_view(), d3d); // expected-error {{make_texture: Direct3D interop needs a Direct3D 11 device}}
}
// expected-note@*:* 0+ {{}}
