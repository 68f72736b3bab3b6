// __thread_group_local: the declaration table of Intel's documentation
// (seed 000), row by row, plus the group-memory limit.
// RUN: %slmcxx -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

#include <gfx/gfx_intrin.h>

#define N 8
#define M 16

// Invalid: at namespace scope.
__thread_group_local int slm_global[N][M]; // expected-error {{'__thread_group_local' variable 'slm_global' must be declared immediately inside a '_Thread_group' nest, not at namespace scope}}

// OK: return types (a pointer to SLM; a qualifier on an rvalue is ignored).
float __thread_group_local *returns_pointer(int);
float __thread_group_local returns_value(int);

// Structure fields: a pointer to SLM is OK, a single SLM field is not.
struct s1 {
  __thread_group_local float *fld;
  __thread_group_local float fld1; // expected-error {{'__thread_group_local' cannot apply to the single field 'fld1'; make the whole variable '__thread_group_local'}}
};
// OK: a structure type marked as a whole.
struct __thread_group_local s2 {
  float tgl[N][M];
};

class c1 {
public:
  int i1;
  c1() { i1 = 10; } // expected-note {{declared here}}
};
struct pod { int a; float b[4]; };

void param(__thread_group_local int p); // expected-error {{'__thread_group_local' variable 'p' must be declared immediately inside a '_Thread_group' nest, not as a parameter}}

__declspec(target(gfx_kernel)) void table(float *out, int n) {
  __thread_group_local int outside[4]; // expected-error {{'outside' must be declared immediately inside a '_Thread_group' nest}}
  _Cilk_for _Thread_group (int y = 0; y < n; y++)
    _Cilk_for _Thread_group (int x = 0; x < n; x++) {
      __thread_group_local int slm_data[N][M];      // OK
      float *__thread_group_local p;                // OK: a pointer allocated in SLM
      float __thread_group_local *q = &out[0];      // OK: a pointer to SLM data
      __thread_group_local c1 obj;                  // expected-error {{'__thread_group_local' variable 'obj' has type 'c1' with a user-provided constructor; only scalars, arrays and plain structs can be thread-group local}}
      __thread_group_local pod plain;               // OK: a POD
      __thread_group_local s2 whole;                // OK
      __thread_group_local int counter = 0;         // OK: initialised once, by the master thread
      __thread_group_local int init[4] = {1, 2, 3, 4};
      _Cilk_for (int i = 0; i < N; i++)
        _Cilk_for (int j = 0; j < M; j++) {
          __thread_group_local int in_nest; // expected-error {{'in_nest' must be declared immediately inside a '_Thread_group' nest}}
          slm_data[i][j] = i + j + init[j % 4] + counter + plain.a + (int)whole.tgl[i][j];
          p = q;
          in_nest = 0; // expected-warning {{write of group-local in_nest by work-item (i = 0, j = 0) races with a write by work-item (i = 0, j = 1)}}
        }
      _gfx_gpgpu_thread_barrier();
      _Cilk_for (int i = 0; i < 1; i++)
        out[y * n + x] = slm_data[1][2];
    }
}

// Total SLM over the device limit (64 KiB unless configured): reported at
// the variable that crosses it, in declaration order.
__declspec(target(gfx_kernel)) void too_big(float *out, int n) {
  _Cilk_for _Thread_group (int g = 0; g < n; g++) { // expected-note {{in the kernel this loop nest runs, which uses 81924 bytes of group-local memory in all}}
    __thread_group_local float a[10240]; // expected-note {{'a' takes 40960 bytes}}
    __thread_group_local float b[10240]; // expected-error {{'b' brings the group-local memory of this kernel to 81920 bytes, more than the 65536 bytes a work-group can have}}
    __thread_group_local int count; // expected-note {{'count' takes 4 bytes}}
    _Cilk_for (int i = 0; i < 10240; i++) {
      a[i] = out[i];
      b[i] = a[i] + count;
    }
  }
}

// One variable over the limit by itself.
__declspec(target(gfx_kernel)) void alone_too_big(float *out, int n) {
  _Cilk_for _Thread_group (int g = 0; g < n; g++) { // expected-note {{in the kernel this loop nest runs}}
    __thread_group_local float whole[20000]; // expected-error {{'whole' takes 80000 bytes of group-local memory, more than the 65536 bytes a work-group can have}}
    _Cilk_for (int i = 0; i < 20000; i++)
      whole[i] = out[i];
  }
}
