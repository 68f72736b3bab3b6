// C++ AMP v1.2, chapter 3 "Device Modeling", accelerator and
// accelerator_view: the default accelerator is the first of get_all();
// accelerators compare equal when they are the same device; a view created
// with a queuing mode reports it; the CPU access type of arrays
// (access_type, 1.2): default_cpu_access_type may be set once, before it is
// used, and arrays created with access_type_auto take it.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: accelerators: 0 failures

#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  accelerator def;
  std::vector<accelerator> all = accelerator::get_all();
  EXPECT(!all.empty() && all[0] == def);
  EXPECT(accelerator(accelerator::default_accelerator) == def);
  EXPECT(accelerator(accelerator::cpu_accelerator).get_device_path() == L"cpu");
  EXPECT(def.get_default_view().get_accelerator() == def);
  accelerator_view imm = def.create_view(queuing_mode_immediate);
  accelerator_view aut = def.create_view();
  EXPECT(imm.get_queuing_mode() == queuing_mode_immediate &&
         aut.get_queuing_mode() == queuing_mode_automatic);
  EXPECT(def.get_supports_cpu_shared_memory());
  EXPECT(def.set_default_cpu_access_type(access_type_read_write));
  EXPECT(!def.set_default_cpu_access_type(access_type_write)); // once only
  array<float, 1> a(16, def.get_default_view());
  EXPECT(a.get_cpu_access_type() == access_type_read_write);
  array<float, 1> b(16, def.get_default_view(), access_type_read);
  EXPECT(b.get_cpu_access_type() == access_type_read);
  std::printf("accelerators: %d failures\n", failures);
  return failures != 0;
}
