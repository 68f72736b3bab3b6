// Vector addition offloaded with #pragma offload ... pin(...): the host
// arrays are shared with the device for the duration of the statement (no
// copies where the device shares host memory; mirrored where it does not).
// Without a device, or with `if` false, the same loop runs on the host.
//
//   slmc++ -O2 vadd.cpp -o vadd && ./vadd [n]
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  if (n <= 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 2;
  }
  std::vector<float> va(n), vb(n), vc(n, -1.0f);
  for (long i = 0; i < n; i++) {
    va[i] = (float)(i % 1024);
    vb[i] = 0.5f * (float)(i % 77);
  }
  float *a = va.data(), *b = vb.data(), *c = vc.data();

#pragma offload target(gfx) pin(a, b, c : length(n))
  _Cilk_for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];

  long bad = 0;
  for (long i = 0; i < n; i++)
    bad += vc[i] != va[i] + vb[i];
  printf("vadd %ld: %s (%ld wrong)\n", n, bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
