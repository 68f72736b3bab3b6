0// What Concurrency::direct3d cannot be without Direct3D is a compile-time
// error that says why: HLSL's noise, and the interop with Direct3D objects.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

void kernel(array_view<float, 1> q) {
  parallel_for_each(q.extent, [=](index<1> i) restrict(amp) {
    q[i] = direct3d::noise(q[i]); // expected-error {{noise is HLSL's Perlin noise, which no compute shader (and no slmc backend) provides}}
  });
}

void interop(IUnknown *device, IUnknown *buffer, array<int, 1> &a) {
  accelerator_view av = direct3d::create_accelerator_view(device); // expected-error {{create_accelerator_view from a Direct3D device: Direct3D interop needs a Direct3D 11 device}}
  IUnknown *d = direct3d::get_device(av); // expected-error {{get_device: Direct3D interop needs}}
  IUnknown *b = direct3d::get_buffer(a); // expected-error {{get_buffer: Direct3D interop needs}}
  array<int, 1> m = direct3d::make_array<int, 1>(extent<1>(4), av, buffer); // expected-error {{make_array: Direct3D interop needs}}
  direct3d::d3d_access_lock(av); // expected-error {{d3d_access_lock: Direct3D interop}}
  direct3d::scoped_d3d_access_lock lock(av); // expected-error {{scoped_d3d_access_lock: Direct3D interop}}
}
// expected-note@*:* 0+ {{}}
