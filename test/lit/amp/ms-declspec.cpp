// MSVC's __declspec keeps its meaning, with -fms-compatibility and
// without: a property stays a property (no data member), and alignment and
// the rest stay Clang's, also when a function's __declspec (here noinline)
// makes the file look like Intel Cilk Plus code to the passes after
// lowering (only Cilk's own target(...) and vector(...) are theirs). The
// C++ AMP Algorithms Library's functor_view reads its extent through such
// a property.
// RUN: %slmcxx -O2 -fms-compatibility %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: %slmcxx -O2 %s -o %t.gnu
// RUN: env SLMC_DEVICE=cpu %t.gnu | FileCheck %s
// CHECK: sizeof 4, n 7, in a kernel 7 7 7 7
// CHECK-NEXT: align 32, twice 42

#include <amp.h>

#include <cstdio>

template <int Rank> class counted {
public:
  explicit counted(int n) restrict(cpu, amp) : n_(n) {}
  __declspec(property(get = get_n)) int n;
  int get_n() const restrict(cpu, amp) { return n_; }

private:
  int n_;
};

struct __declspec(align(32)) aligned_block {
  float v;
};

__declspec(noinline) int twice(int x) { return 2 * x; }

int main() {
  counted<1> c(7);
  std::vector<int> out(4);
  concurrency::array_view<int, 1> o(4, out);
  concurrency::parallel_for_each(o.extent, [=](concurrency::index<1> i) restrict(amp) {
    o[i] = c.n;
  });
  o.synchronize();
  std::printf("sizeof %zu, n %d, in a kernel %d %d %d %d\n", sizeof(counted<1>), c.n, out[0],
              out[1], out[2], out[3]);
  std::printf("align %zu, twice %d\n", alignof(aligned_block), twice(21));
  return 0;
}
