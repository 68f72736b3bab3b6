// access_type (C++ AMP 1.2): arrays created with a CPU access type report it,
// access_type_auto takes the accelerator's default_cpu_access_type, which a
// program may set once before any array uses it; accelerator and
// accelerator_view queries and MSVC's properties.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// CHECK: default read_write: 1
// CHECK: set before use: 1 again: 0
// CHECK: access types: 0 1 2 3 0 3
// CHECK: shared memory: 1 1
// CHECK: views: 0 1 1 1
// CHECK: all: {{[1-9]}} first is default: 1
// CHECK: values: 6 PASSED

#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int main() {
  accelerator acc;
  std::printf("default read_write: %d\n",
              acc.get_default_cpu_access_type() == access_type_read_write);
  // Set once, before an array has used the default.
  bool first = acc.set_default_cpu_access_type(access_type_none);
  bool second = acc.set_default_cpu_access_type(access_type_read);
  std::printf("set before use: %d again: %d\n", first, second);

  accelerator_view av = acc.get_default_view();
  array<int, 1> a0(4, av);                       // auto: the default set above
  array<int, 1> a1(4, av, access_type_read);
  array<int, 2> a2(2, 2, av, access_type_write);
  std::vector<int> src = {1, 2, 3};
  array<int, 1> a3(3, src.begin(), src.end(), av, access_type_read_write);
  array<int, 1> a4(extent<1>(3), src.begin(), av, access_type_auto);
  array<int, 1> copy(a3);
  std::printf("access types: %d %d %d %d %d %d\n", a0.get_cpu_access_type(),
              a1.cpu_access_type, a2.get_cpu_access_type(), a3.get_cpu_access_type(),
              a4.get_cpu_access_type(), copy.get_cpu_access_type());
  // Once an array used it, the default cannot change.
  accelerator same;
  std::printf("shared memory: %d %d\n", acc.get_supports_cpu_shared_memory(),
              same.supports_cpu_shared_memory && !same.set_default_cpu_access_type(access_type_read));

  accelerator_view iv = acc.create_view(queuing_mode_immediate);
  accelerator_view auto_view = accelerator::get_auto_selection_view();
  std::printf("views: %d %d %d %d\n", iv.get_queuing_mode(),
              av.queuing_mode == queuing_mode_automatic, auto_view.is_auto_selection,
              iv.get_accelerator() == acc);

  std::vector<accelerator> all = accelerator::get_all();
  std::printf("all: %d first is default: %d\n", int(all.size()),
              all[0] == acc && all[0].device_path == acc.get_device_path() &&
                  all[0].description == acc.get_description() &&
                  acc.dedicated_memory == acc.get_dedicated_memory() &&
                  acc.is_emulated == acc.get_is_emulated() &&
                  acc.default_cpu_access_type == access_type_none);

  // Every type still runs kernels and reads back (all memory is shared).
  parallel_for_each(a3.extent, [&a3](index<1> i) restrict(amp) { a3[i] *= 2; });
  std::vector<int> out(3);
  copy_async(a3, out.begin()).get();
  bool ok = out[0] == 2 && out[2] == 6;
  std::printf("values: %d %s\n", out[2], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
