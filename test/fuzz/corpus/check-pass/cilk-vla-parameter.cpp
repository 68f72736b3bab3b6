3// C99 variable-length array parameters, as ICC's samples pass 2-D arrays:
// clang cannot take an array of constant size for them, so slmc explains
// the "no matching function" error at the parameter.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-vla-parameter -Xclang -verify=quiet %s

#include <gfx/gfx_intrin.h>

// expected-warning@+4 {{parameter 'in' has variable-length array type 'float (*)[w]': clang accepts only arguments of that same variable type, not arrays of constant size (GCC and ICC convert them)}}
// expected-note@+3 {{declare it as a pointer to an array of constant extent ('float (*)[N]') or as 'float *' with explicit index arithmetic}}
// expected-warning@+2 {{parameter 'out' has variable-length array type 'float (*)[h]'}}
// expected-note@+1 {{declare it as a pointer to an array of constant extent ('float (*)[N]')}}
__declspec(target(gfx_kernel)) void transpose(int w, int h, float in[][w], float out[][h]) { // expected-note {{candidate function not viable}} quiet-note {{candidate function not viable}}
  _Cilk_for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[x][y] = in[y][x];
}

// The rewrites the note suggests compile and need no diagnostic.
__declspec(target(gfx_kernel)) void transpose_fixed(float (*in)[8], float (*out)[4]) {
  _Cilk_for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++)
      out[x][y] = in[y][x];
}
__declspec(target(gfx_kernel)) void transpose_flat(int w, int h, const float *in, float *out) {
  _Cilk_for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[x * h + y] = in[y * w + x];
}

int main() {
  float a[4][8], b[8][4];
  transpose(8, 4, a, b); // expected-error {{no matching function for call to 'transpose'}} quiet-error {{no matching function for call to 'transpose'}}
  transpose_fixed(a, b);
  transpose_flat(8, 4, &a[0][0], &b[0][0]);
}
