// C++ AMP v1.2 §12 "Error Handling", §12.2 runtime errors:
//   runtime_exception: built from a message and an error code (or a code
//     alone); what() gives the message, get_error_code() the code; copies
//     keep both.
//   out_of_memory, invalid_compute_domain, unsupported_feature: derived
//     from runtime_exception, built from a message or with none; the
//     library throws invalid_compute_domain for a launch over a bad domain
//     and runtime_exception for an invalid argument (a section outside its
//     view, a container smaller than the view's extent).
//   accelerator_view_removed: derived from runtime_exception, keeps the
//     removal reason apart (get_view_removed_reason()).
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: error handling: 0 failures

#include <amp.h>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>
using namespace concurrency;

static_assert(std::is_base_of<std::exception, runtime_exception>::value, "");
static_assert(std::is_base_of<runtime_exception, out_of_memory>::value, "");
static_assert(std::is_base_of<runtime_exception, invalid_compute_domain>::value, "");
static_assert(std::is_base_of<runtime_exception, unsupported_feature>::value, "");
static_assert(std::is_base_of<runtime_exception, accelerator_view_removed>::value, "");

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  runtime_exception e("something failed", 0x1234);
  EXPECT(std::strcmp(e.what(), "something failed") == 0);
  EXPECT(e.get_error_code() == 0x1234);
  runtime_exception copy(e);
  EXPECT(std::strcmp(copy.what(), "something failed") == 0 && copy.get_error_code() == 0x1234);
  runtime_exception assigned(7);
  EXPECT(assigned.get_error_code() == 7);
  assigned = e;
  EXPECT(assigned.get_error_code() == 0x1234);

  out_of_memory oom("no memory"), oom2;
  invalid_compute_domain icd("bad domain"), icd2;
  unsupported_feature uf("no such thing"), uf2;
  EXPECT(std::strcmp(oom.what(), "no memory") == 0 && oom2.get_error_code() == oom.get_error_code());
  EXPECT(std::strcmp(icd.what(), "bad domain") == 0 && icd2.get_error_code() == icd.get_error_code());
  EXPECT(std::strcmp(uf.what(), "no such thing") == 0 && uf2.get_error_code() == uf.get_error_code());
  accelerator_view_removed avr("removed", 42), avr2(43);
  EXPECT(std::strcmp(avr.what(), "removed") == 0);
  EXPECT(avr.get_view_removed_reason() == 42 && avr2.get_view_removed_reason() == 43);

  // The library's errors are caught as runtime_exception.
  std::vector<int> data(8, 0);
  array_view<int, 1> v(8, data);
  int caught = 0;
  try {
    parallel_for_each(extent<1>(int(data.size()) + 1).tile<4>(),
                      [=](tiled_index<4> t) restrict(amp) { v[t.global] = 1; });
  } catch (const runtime_exception &ex) {
    caught += dynamic_cast<const invalid_compute_domain *>(&ex) != nullptr;
  }
  try {
    array_view<int, 1> s = v.section(6, 4); // past the end
    (void)s;
  } catch (const runtime_exception &) {
    ++caught;
  }
  try {
    std::vector<int> small(3);
    array_view<int, 1> too_big(4, small);
    (void)too_big;
  } catch (const runtime_exception &) {
    ++caught;
  }
  EXPECT(caught == 3);
  std::printf("error handling: %d failures\n", failures);
  return failures != 0;
}
