// A header forced with -include sees slmc's prelude in slmc-clangd too:
// restrict(amp) in it is no error, and a rule broken in the main file still
// shows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %slmc-cdb %t %s %slmcxx -include %S/../amp/Inputs/forced-harness.h
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t | FileCheck %s
// CHECK-NOT: forced-harness.h
// CHECK-NOT: restrict

void f(concurrency::array_view<int, 1> av) {
  concurrency::parallel_for_each(av.extent.tile<32>(), [=](concurrency::tiled_index<32> t) restrict(amp) {
    tile_static int x = harness_square(2);
// CHECK: forced-include.cpp:[[@LINE-1]]:21: error: 'tile_static' variable 'x' cannot have an initializer (fix available)
    av[t.global] = x;
  });
}
