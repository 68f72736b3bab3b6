// Visual Studio projects built with clang keep MSVC's language extensions
// on (-fms-extensions, -fdeclspec, -fdelayed-template-parsing). They change
// what the source means, so slmc++ gives them to every pass: the device
// passes parse what the check and host passes parse. Here: a member
// declared with its class's name (MSVC's extra qualification), __int64,
// __declspec(align), and a template whose body names what is declared after
// it (accepted under delayed template parsing).
// RUN: %slmcxx -fms-extensions -fdeclspec -fdelayed-template-parsing -Wno-microsoft-extra-qualification -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: %slmcxx -fms-extensions -fdeclspec -fdelayed-template-parsing -Wno-microsoft-extra-qualification --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx -fms-extensions -fdeclspec -fdelayed-template-parsing -Wno-microsoft-extra-qualification --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// CHECK: sums 6 22 38 54 total 120
// PTX: .entry

#include <amp.h>
#include <cstdio>

using namespace concurrency;

struct __declspec(align(16)) Accumulator {
  __int64 total;
  Accumulator &Accumulator::add(__int64 v) restrict(amp, cpu) { // MSVC accepts the qualification
    total += v;
    return *this;
  }
};

template <class T> int tile_total(T &view) restrict(amp) { return later(view); }
int later(const array_view<int, 1> &v) restrict(amp) { return v[0]; }

int main() {
  int data[16], sums[4] = {};
  for (int i = 0; i < 16; ++i)
    data[i] = i;
  array_view<int, 1> in(16, data), out(4, sums);
  parallel_for_each(in.extent.tile<4>(), [=](tiled_index<4> t) restrict(amp) {
    tile_static int part[4];
    part[t.local[0]] = in[t.global];
    t.barrier.wait();
    if (t.local[0] == 0) {
      Accumulator a = {0};
      for (int i = 0; i < 4; ++i)
        a.add(part[i]);
      array_view<int, 1> first = in.section(t.tile_origin, extent<1>(1));
      out[t.tile] = int(a.total) + tile_total(first) - t.tile_origin[0];
    }
  });
  out.synchronize();
  Accumulator all = {0};
  for (int s : sums)
    all.add(s);
  std::printf("sums %d %d %d %d total %d\n", sums[0], sums[1], sums[2], sums[3], int(all.total));
  return all.total == 120 ? 0 : 1;
}
