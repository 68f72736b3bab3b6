// C++ AMP v1.2 §2.3.2: overloads on the restriction run the cpu overload in
// host code and the amp overload in kernels, also when the CPU fallback
// runs the kernel on the host (free functions, members, templates). The
// test runs on whichever device SLMC_DEVICE picks (the CPU in lit).
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: host: 1 10 100 1000 3 1
// CHECK: kernel: 2 20 200 2000 3 2
// CHECK: amp code: 2
// CHECK: reach: 10006 20012

#include <amp.h>
#include <cstdio>
using namespace concurrency;

int which() restrict(cpu);
int which() restrict(amp);
int which() restrict(cpu) { return 1; }
int which() restrict(amp) { return 2; }

struct Probe {
  int scaled() const restrict(cpu) { return 10; }
  int scaled() const restrict(amp);
};
int Probe::scaled() const restrict(amp) { return 20; }

template <class T> T hundred(T) restrict(cpu) { return 100; }
template <class T> T hundred(T) restrict(amp) { return 200; }

namespace lib {
int thousand() { return 1000; }
int thousand() restrict(amp) { return 2000; }
} // namespace lib

int shared() restrict(cpu, amp) { return 3; }
// restrict(cpu, amp) code calls the overload of the context it runs in.
int through() restrict(cpu, amp) { return which(); }

// restrict(cpu, amp) code calling a member, a function template and a
// qualified name: the call cannot choose when it runs, so on the CPU
// fallback the cpu overload hands over to the amp one inside a work-item.
struct Gauge {
  int read(int x) const restrict(cpu) { return x + 10000; }
  int read(int x) const restrict(amp) { return x + 20000; }
};
template <class T> T twin(T x) restrict(amp) { return x * 2; }
template <class T> T twin(T x) restrict(cpu) { return x; }
namespace lib {
int tenk(int x) restrict(amp) { return x + 2; }
int tenk(int x) restrict(cpu) { return x + 1; }
} // namespace lib
int reach(int x) restrict(cpu, amp) {
  Gauge g;
  return g.read(0) + twin(x) + lib::tenk(0);
}

// amp code calling amp code that calls an overload.
int nested() restrict(amp) { return which(); }

int main() {
  Probe p;
  std::printf("host: %d %d %d %d %d %d\n", which(), p.scaled(), hundred(0),
              lib::thousand(), shared(), through());
  std::vector<int> out(8, -1);
  array_view<int, 1> av(8, out);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    Probe q;
    av[0] = which();
    av[1] = q.scaled();
    av[2] = hundred(0);
    av[3] = lib::thousand();
    av[4] = shared();
    av[5] = nested();
    av[6] = through();
    av[7] = reach(5);
  });
  av.synchronize();
  std::printf("kernel: %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3],
              out[4], out[6]);
  std::printf("amp code: %d\n", out[5]);
  std::printf("reach: %d %d\n", reach(5), out[7]);
  return 0;
}
