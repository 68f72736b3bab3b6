// C for Metal features slmc does not provide are one named error each, at
// the line that uses them.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
#include <cm/cm.h>

// expected-error@+1 {{'SamplerIndex' is unavailable: a sampler (SamplerIndex) is not supported by slmc}}
extern "C" _GENX_MAIN_ void sampler(SamplerIndex smp, SurfaceIndex s) {
  matrix<float, 4, 16> m;
  // expected-error@+1 {{is unavailable: sampling (sample16) is not supported by slmc}}
  sample16(m, CM_R_ENABLE, s, smp, 0.5f, 0.5f);
  vector<uint, 8> u = 0, v = 0;
  matrix<uint, 1, 8> t;
  // expected-error@+1 {{is unavailable: a typed surface read (read_typed) is not supported by slmc}}
  read_typed(s, CM_R_ENABLE, t, u, v);
  // expected-error@+1 {{is unavailable: a raw message (cm_send) is not supported by slmc}}
  cm_send<1>(t, u, 0, 0);
}
// expected-note@*:* 1+ {{has been explicitly marked unavailable here}}
