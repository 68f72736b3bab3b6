// What Microsoft's C++ AMP programs take from MSVC around the classes of the
// specification, as they are written for Visual Studio:
//  * the file is saved "UTF-8 with signature" (a byte order mark first);
//  * C++14, the language level of Visual Studio 2015's projects;
//  * <amprt.h> included by name, and <amp.h>'s C math functions (log,
//    fabs) used in host code without <cmath>;
//  * the device's name printed with std::wcout, every result after it with
//    printf and std::cout (glibc keeps one orientation per stream: without
//    slmc's narrowing of the wide streams the later lines vanish);
//  * accelerators filtered by device path: `cpu` (MSVC's runs no kernels)
//    and `direct3d\ref` (too slow) set aside, which leaves the CPU
//    fallback (WARP's path here); the default accelerator is not REF;
//  * staging arrays (specification 5.1.1): created on the CPU accelerator,
//    associated with another view, copied to and from.
// RUN: printf '\357\273\277' > %t.cpp
// RUN: cat %s >> %t.cpp
// RUN: %slmcxx -std=c++14 -O2 %t.cpp -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// CHECK: device: {{.+}}
// CHECK-NEXT: cout after wcout
// CHECK-NEXT: usable devices: 1 first direct3d\warp
// CHECK-NEXT: default is REF: no; cpu == ref: no; cpu path: cpu (CPU accelerator)
// CHECK-NEXT: staging: associated with its view: yes, with the CPU's: no
// CHECK-NEXT: tiled sums: 28 92 156 220
// CHECK-NEXT: log 2.0794 fabs 3.5
// CHECK-NEXT: PASSED
#include <amprt.h>
#include <amp.h>
#include <iostream>
#include <stdio.h>
#include <vector>

using namespace concurrency;

int main() {
  accelerator default_device;
  std::wcout << L"device: " << default_device.description << std::endl;
  std::cout << "cout after wcout" << std::endl;

  std::vector<accelerator> usable;
  for (const accelerator &a : accelerator::get_all())
    if (a.device_path != accelerator::cpu_accelerator &&
        a.device_path != accelerator::direct3d_ref)
      usable.push_back(a);
  printf("usable devices: %d first %ls\n", int(usable.size()),
         usable.empty() ? L"-" : usable[0].device_path.c_str());
  accelerator cpu(accelerator::cpu_accelerator), ref(accelerator::direct3d_ref);
  printf("default is REF: %s; cpu == ref: %s; cpu path: %ls (%ls)\n",
         default_device == ref ? "yes" : "no", cpu == ref ? "yes" : "no",
         cpu.device_path.c_str(), cpu.description.c_str());

  // Staging input and output, the kernel's array on the default view.
  std::vector<int> host(32);
  for (int i = 0; i < 32; ++i)
    host[i] = i;
  accelerator_view view = default_device.create_view();
  array<int, 1> in_staging(32, host.begin(), cpu.default_view, view);
  array<int, 1> out_staging(4, cpu.default_view, view);
  printf("staging: associated with its view: %s, with the CPU's: %s\n",
         in_staging.get_associated_accelerator_view() == view ? "yes" : "no",
         out_staging.get_associated_accelerator_view() == cpu.default_view ? "yes" : "no");
  array<int, 1> data(32, view), sums(4, view);
  copy(in_staging, data);
  parallel_for_each(data.extent.tile<8>(), [&data, &sums](tiled_index<8> t) restrict(amp) {
    tile_static int part[8];
    part[t.local[0]] = data[t.global];
    t.barrier.wait();
    if (t.local[0] == 0) {
      int s = 0;
      for (int i = 0; i < 8; ++i)
        s += part[i];
      sums[t.tile] = s;
    }
  });
  copy(sums, out_staging);
  printf("tiled sums: %d %d %d %d\n", out_staging[0], out_staging[1], out_staging[2],
         out_staging[3]);
  printf("log %.4f fabs %.1f\n", log(8.0), fabs(-3.5));
  bool ok = out_staging[0] == 28 && out_staging[3] == 220 && !usable.empty();
  std::cout << (ok ? "PASSED" : "FAILED") << std::endl;
  return ok ? 0 : 1;
}
