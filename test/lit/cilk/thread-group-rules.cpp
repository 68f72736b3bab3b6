// The rules Intel's compiler documented for `_Cilk_for _Thread_group` nests
// (DIALECTS.md §1, seed 000): where thread-group loops may appear, the
// serial-code restrictions, second-level nests, firstprivate locals and
// barriers. Through slmc++ and through the plugin on a stock clang++.
// RUN: %slmcxx -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

#include <gfx/gfx_intrin.h>

int counter;
static float table[4];
const int kTile = 16; // a named constant may be read
void host_only(int);  // expected-note 2 {{'host_only' declared here; add '__declspec(target(gfx))'}}
__declspec(target(gfx)) float twice(float x) { return 2 * x; }
__declspec(target(gfx)) void has_nest(float *p) {
  _Cilk_for (int i = 0; i < 4; i++) // expected-note {{'_Cilk_for' nest of 'has_nest' is here}}
    p[i] = 0;
}

// ---- placement -------------------------------------------------------------
void host_function(float *p, int n) {
  _Cilk_for _Thread_group (int g = 0; g < n; g++) { // expected-error {{'_Thread_group' loops are only allowed in a '__declspec(target(gfx_kernel))' function or after '#pragma offload target(gfx)'}}
    _Cilk_for (int i = 0; i < 4; i++) p[i] = 0;
  }
  _Cilk_for (int i = 0; i < n; i++) // a host _Cilk_for is fine
    p[i] = 1;
}

__declspec(target(gfx_kernel)) void shapes(float *p, int n) {
  _Cilk_for _Thread_group (int a = 0; a < n; a++)
    _Cilk_for _Thread_group (int b = 0; b < n; b++)
      _Cilk_for _Thread_group (int c = 0; c < n; c++) { // expected-error {{nest has more than two dimensions}}
        _Cilk_for (int i = 0; i < 4; i++) p[i] = 0;
      }
  _Cilk_for _Thread_group (int g = 0; g < n; g++) { // expected-error {{contains no second-level '_Cilk_for' nest}}
    int x = g;
    (void)x;
  }
  _Cilk_for _Thread_group (int g = 0; g < n; g++) {
    int x = n;
    _Cilk_for _Thread_group (int h = 0; h < x; h++) { // expected-error {{cannot follow non-'_Thread_group' code; the first-level nest must be perfect}}
      _Cilk_for (int i = 0; i < 4; i++) p[i] = 0;
    }
  }
  _Cilk_for _Thread_group (int g = 0; g < n; g++) {
    _Cilk_for (int i = 0; i < 4; i++) {
      _Cilk_for _Thread_group (int h = 0; h < 2; h++) // expected-error {{cannot be nested in a second-level nest}}
        p[h] = 0;
    }
  }
  _Cilk_for _Thread_group (int g = 0; g * g < n; g++) { // expected-error {{not in canonical form: the condition must compare the control variable with a bound}}
    _Cilk_for (int i = 0; i < 4; i++) p[i] = 0;
  }
}

// ---- serial code --------------------------------------------------------------
__declspec(target(gfx_kernel)) void serial(float *data, float &ref, int n, int m) {
  _Cilk_for _Thread_group (int g = 0; g < n; g++) {
    __thread_group_local float slm[64];
    int lo = m / 2, hi = m * 2;      // locals and parameters: fine
    int local_array[4];
    local_array[0] = lo;             // local memory: fine
    float t = twice(1.0f);           // expected-error {{serial code of a thread-group nest cannot call 'twice'; move the call into a second-level '_Cilk_for' nest}}
    counter++;                       // expected-error {{serial code of a thread-group nest cannot access global variable 'counter'}}
    t += table[0];                   // expected-error {{cannot access global variable 'table'}}
    t += kTile;
    host_only(lo);                   // expected-error {{serial code of a thread-group nest cannot call 'host_only'}} expected-error {{call to 'host_only', which is not declared '__declspec(target(gfx))', from offloaded code}}
    data[g] = t;                     // expected-error {{cannot update memory through a pointer; every thread of the group runs it}}
    ref = t;                         // expected-error {{cannot update memory through a reference}}
    t += slm[0];                     // expected-error {{cannot read '__thread_group_local' variable 'slm' outside an assignment to it}}
    slm[0] = t;                      // an assignment to thread-group-local data: fine
    for (int k = lo; k < hi; k++) {  // a serial loop around a second-level nest
      _Cilk_for (int i = 0; i < 64; i++)
        slm[i] = data[i] * k;
      _gfx_gpgpu_thread_barrier();
      if (k == 7)
        break;                       // leaves the serial loop only: fine
    }
    if (lo > hi)
      return;                        // expected-error {{'return' is not allowed in a thread-group nest}}
  }
}

// ---- second-level nests, firstprivate, barriers, calls --------------------------
__declspec(target(gfx_kernel)) void nests(float *data, int n) {
  _Cilk_for _Thread_group (int g = 0; g < n; g++) {
    int sum = 0, scratch = 0;
    _Cilk_for (int i = 0; i < 64; i++) {
      sum += i;                      // expected-error {{'sum' is firstprivate in this second-level nest and is used after it, so the nest cannot update it}}
      scratch = i;                   // not used after the nest: fine
      data[i] = scratch;
      _gfx_gpgpu_thread_barrier();   // expected-error {{'_gfx_gpgpu_thread_barrier' inside a second-level nest}}
      has_nest(data);                // expected-error {{'has_nest' contains a '_Cilk_for' nest and is called from a thread-group nest}}
      host_only(i);                  // expected-error {{call to 'host_only', which is not declared '__declspec(target(gfx))', from offloaded code}}
      data[i] = twice(data[i]);      // target(gfx): fine
    }
    int after = sum;                 // expected-note {{'sum' is used here, after the nest}}
    (void)after;
    _Cilk_for (int i = 0; i < 8; i++) {
      data[i] = 0;
      _Cilk_for (int j = 0; j < 8; j++) // expected-error {{the loops of a second-level nest must be perfectly nested}}
        data[j] = 1;
    }
  }
}

void stray_barrier() {
  _gfx_gpgpu_thread_barrier(); // expected-error {{'_gfx_gpgpu_thread_barrier' is only allowed in the serial code of a thread-group nest}}
}

// ---- definitions -----------------------------------------------------------
// A target(gfx) function an offloaded nest calls is defined in the same file
// (ICC built each file's offload code on its own too); the host code around
// the nest may call anything.
__declspec(target(gfx)) float other_file(float x); // expected-note {{'other_file' is declared here; slmc compiles each translation unit's device code on its own}}
void declared_host(float *p);
void offload_calls(float *p) {
  declared_host(p);
#pragma offload target(gfx) pin(p : length(64))
  _Cilk_for (int i = 0; i < 64; i++)
    p[i] = other_file(p[i]); // expected-error {{'other_file' is called from kernel code but is not defined in this translation unit}}
}
