0// Zero and negative tile sizes are rejected by <amp.h>'s static_assert,
// with the message first.
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %slmcxx -fsyntax-only -DNEG %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed{{.*}}tile dimensions must be positive

#include <amp.h>
using namespace concurrency;

void tile_dims(array_view<int, 1> av) {
#ifdef NEG
  parallel_for_each(av.extent.tile<-4>(), [=](tiled_index<-4> t) restrict(amp) {});
#else
  parallel_for_each(av.extent.tile<0>(), [=](tiled_index<0> t) restrict(amp) {});
#endif
}
