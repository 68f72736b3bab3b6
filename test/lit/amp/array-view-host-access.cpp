// C++ AMP v1.2 §5.2: on the CPU an array_view of host memory reads and
// writes that memory (the CPU's copy of its data is the data source), so
// the container sees the host's writes through any copy of the view at
// once, and kernels see them at the next launch. On a GPU slmc keeps a
// device copy coherent with the container; here the fake CUDA driver
// (host memory, launches run nothing) stands for one, so every check is of
// host-side accesses, copies and launches, not of kernel results.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %if fake-cuda %{ %fake-cuda %t | FileCheck %s %}
// CHECK: alias write seen by the container: ok
// CHECK: container write seen after refresh: ok
// CHECK: host writes survive launch and synchronize: ok
// CHECK: copy into the view seen by the host: ok
// CHECK: copy out of the view sees host writes: ok
// CHECK: data() is the container's memory: ok
// CHECK: host writes survive the last view: ok
// CHECK: const view of a written view: ok
// CHECK: container writes before the first launch reach it: ok
// CHECK: staging array on the cpu accelerator: ok

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
}

int main() {
  std::vector<int> host(6, 0);
  array_view<int, 2> v(2, 3, host);
  {
    array_view<int, 2> alias = v;
    alias(1, 2) = 7;
    report("alias write seen by the container", host[5] == 7 && v(1, 2) == 7);
  }

  host[0] = 42;
  v.refresh();
  report("container write seen after refresh", v(0, 0) == 42);

  // Host writes, then a kernel that does not touch the data: the launch
  // hands the device the host's writes, so synchronize (which takes the
  // kernels' results) keeps them.
  v(0, 1) = 5;
  array_view<int, 1> other(4);
  parallel_for_each(other.extent, [=](index<1> i) restrict(amp) { other[i] = i[0]; });
  v.synchronize();
  report("host writes survive launch and synchronize",
         host[1] == 5 && host[0] == 42 && host[5] == 7);

  std::vector<int> src = {1, 2, 3, 4, 5, 6};
  copy(src.begin(), src.end(), v);
  report("copy into the view seen by the host", v(1, 0) == 4 && v(0, 2) == 3);

  v(1, 1) = -5;
  std::vector<int> out(6);
  copy(v, out.begin());
  report("copy out of the view sees host writes", out[4] == -5 && out[0] == 1);

  int *p = v.data();
  p[2] = 99;
  report("data() is the container's memory", p == host.data() && host[2] == 99);

  {
    std::vector<int> mine(3, 0);
    {
      array_view<int, 1> w(3, mine);
      w[1] = 11;
    }
    report("host writes survive the last view", mine[1] == 11);
  }

  array_view<const int, 2> ro = v;
  report("const view of a written view", ro(1, 1) == -5 && ro(0, 2) == 99);

  // The device copy is filled when first needed, as C++ AMP's: writes to
  // the container after the view is made, and before its first launch,
  // reach the kernel (the C++ AMP Algorithms Library's tests fill their
  // vectors after making the views).
  std::vector<int> later(8, 1);
  array_view<int> lv(8, later);
  for (int i = 0; i < 8; ++i)
    later[i] = i;
  parallel_for_each(lv.extent, [=](index<1> i) restrict(amp) { lv[i] += 0; });
  lv.synchronize();
  report("container writes before the first launch reach it", later[7] == 7 && lv[3] == 3);

  // A staging array on the cpu accelerator's view, associated with the
  // device's, whatever device kernels run on (the host's memory is shared).
  array<int> staging(4, accelerator(accelerator::cpu_accelerator).default_view,
                     accelerator().default_view);
  report("staging array on the cpu accelerator",
         staging.get_associated_accelerator_view() == accelerator().default_view);
  return 0;
}
