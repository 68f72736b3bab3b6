// MSVC-era C++ AMP code leans on MSVC's leniency, which Clang's MSVC
// compatibility mode gives (-fms-compatibility): unqualified names found in
// a dependent base at instantiation, a member template redeclaring its
// class's template parameter, plus delayed template parsing. Off Windows
// that mode leaves out GCC's predefined macros and, with no version given,
// char16_t; slmc++ restores both, so libstdc++ (<atomic>, <thread>,
// <functional>) compiles in every pass. Also MSVC's tidx.tile_extent and
// av.accelerator properties and a view of a temporary array (MSVC binds it,
// C4239, and the view keeps the buffer alive).
// RUN: %slmcxx -std=c++14 -fms-compatibility -fdelayed-template-parsing -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: %slmcxx -std=c++14 -fms-compatibility -fdelayed-template-parsing --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=STRICT
// CHECK: filled 7
// CHECK-NEXT: sum 2016 tiles 64 of 16 view 45 device 1
// STRICT: error: declaration of 'T' shadows template parameter

#include <amp.h>
#include <atomic>
#include <cstdio>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

using namespace concurrency;

// The iterator of the C++ AMP Algorithms Library's style: its member
// templates say `template <typename T>` again, and it names `reference`
// and `difference_type` of its dependent base without qualification.
template <typename T>
class view_iterator : public std::iterator<std::random_access_iterator_tag, T, int> {
  template <typename T> friend view_iterator<T> begin_of(const array_view<T> &v);

public:
  reference operator*() const { return (*view_)[position_]; }
  view_iterator &operator+=(difference_type n) {
    position_ += n;
    return *this;
  }
  difference_type position() const { return position_; }

private:
  view_iterator(const array_view<T> *v, int p) : view_(v), position_(p) {}
  const array_view<T> *view_;
  int position_;
};

template <typename T> view_iterator<T> begin_of(const array_view<T> &v) {
  return view_iterator<T>(&v, 0);
}

// Declared restrict(amp) but defined for the cpu, as the C++ AMP Algorithms
// Library's swap_ranges is: a restriction is part of MSVC's function type,
// so these are two overloads and a cpu caller gets the defined one. Under
// delayed template parsing the check pass (which prefers amp overloads)
// never parses that body, yet its kernel's restrict(amp) is lowered.
template <typename T> T fill_with(array_view<T> v, T x) restrict(amp);
template <typename T> T fill_with(array_view<T> v, T x) {
  parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = x; });
  return v[0];
}

// Named before it is declared: MSVC looks it up at instantiation.
template <typename T> T twice_of(T x) { return helper_declared_later(x) * 2; }
int helper_declared_later(int x) { return x; }

int main() {
  std::vector<int> data(64);
  for (int i = 0; i < 64; ++i)
    data[i] = i;
  array_view<int> av(64, data);
  array_view<int> tile_sizes(64);
  parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_sizes[t.global] = t.tile_extent[0];
  });
  std::atomic<int> sum{0};
  std::thread worker([&] {
    auto it = begin_of(av);
    for (int i = 0; i < 64; ++i, it += 1)
      sum += *it;
  });
  worker.join();
  array_view<int> squares(array<int>(10, accelerator(accelerator::cpu_accelerator).default_view,
                                     accelerator().default_view));
  parallel_for_each(squares.extent, [=](index<1> i) restrict(amp) { squares[i] = i[0]; });
  int view_sum = 0;
  for (int i = 0; i < 10; ++i)
    view_sum += squares[i];
  array_view<int> sevens(4);
  std::printf("filled %d\n", fill_with(sevens, 7));
  accelerator_view view = accelerator().default_view;
  std::printf("sum %d tiles %d of %d view %d device %d\n", twice_of(int(sum)) / 2,
              av.extent.tile<16>().tile_extent[0] * 4, tile_sizes[63], view_sum,
              view.accelerator == view.get_accelerator());
  return 0;
}
