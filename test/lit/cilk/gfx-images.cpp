// ICC's 2D images (_gfx_read_2d/_gfx_write_2d in offloaded code, GfxImage2D
// and the _GFX_*image* API on the host) need Gen media surfaces, which slmc
// does not have: each use is an error naming what is unsupported.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx %plugin -fsyntax-only -Xclang -verify %s
#include "gfx/gfx_rt.h"

__declspec(target(gfx_kernel)) void blur(__gfx_surface_index in, int *out, int w) {
  _Cilk_for (int y = 0; y < 16; y++) {
    int row[8];
    _gfx_read_2d(in, 0, y, row, 32, 1); // expected-error {{'_gfx_read_2d' is unavailable: slmc does not support Cilk Plus 2D images; read and write the data through a pointer instead}}
    _gfx_write_2d(in, 0, y, row, 32, 1); // expected-error {{'_gfx_write_2d' is unavailable: slmc does not support Cilk Plus 2D images}}
    out[y * w] = row[0];
  }
}
// expected-note@*:* {{'_gfx_read_2d' has been explicitly marked unavailable here}}
// expected-note@*:* {{'_gfx_write_2d' has been explicitly marked unavailable here}}

int main() {
  static int pixels[16 * 8], out[16 * 8];
  GfxImage2D<int> image(pixels, 16, 8); // expected-error {{'GfxImage2D<int>' is unavailable: slmc does not support Cilk Plus 2D images}}
  GfxResourceHandle h = _GFX_create_image_2d(pixels, 4, 16, 8, 0, GFX_MEMORY_SHARED); // expected-error {{'_GFX_create_image_2d' is unavailable}}
  _GFX_write_image_2d(h); // expected-error {{'_GFX_write_image_2d' is unavailable}}
  _GFX_close_resource_handle(h); // expected-error {{'_GFX_close_resource_handle' is unavailable}}
  (void)out;
  return 0;
}
// expected-note@*:* 4 {{explicitly marked unavailable here}}
