// The slmc-* checks in clang-tidy-22: one per warning group, slmc-rules for
// the errors; a check's name in clang-tidy plays the role of the -W group in
// slmc++. Same text, same places, notes and fix-its as slmc++.
// RUN: %slmc-tidy --list-checks --checks='-*,slmc-*' | FileCheck %s --check-prefix=LIST
// RUN: not %slmc-tidy --checks='-*,slmc-*' %s -- -DINIT 2>&1 | FileCheck %s --check-prefixes=ALL,WARN
// RUN: not %slmc-tidy --checks='-*,slmc-*,-slmc-tile-static-constructor' %s -- -DINIT 2>&1 | FileCheck %s --check-prefixes=ALL,NOWARN
// RUN: not %slmc-tidy --checks='-*,slmc-*' %s -- -DINIT -Wno-slmc-tile-static-constructor 2>&1 | FileCheck %s --check-prefixes=ALL,NOWARN
// RUN: not %slmc-tidy --checks='-*,slmc-*' --warnings-as-errors='slmc-tile-static-constructor' %s -- 2>&1 | FileCheck %s --check-prefix=WERR
// RUN: %slmc-tidy --checks='-*,slmc-tile-static-constructor' %s -- -DINIT 2>&1 | FileCheck %s --check-prefix=ONLYWARN
// RUN: not %slmc-tidy --checks='-*,slmc-*' %s -- -DBIG 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: %slmc-tidy --checks='-*,slmc-*' --config='{CheckOptions: {slmc-rules.GroupMemoryLimit: 131072}}' %s -- -DBIG 2>&1 | FileCheck %s --check-prefix=BIGOK
// RUN: rm -rf %t && mkdir %t && cp %s %t/fix.cpp
// RUN: %slmc-tidy --checks='-*,slmc-rules' --fix-errors %t/fix.cpp -- -DINIT
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/fix.cpp

// LIST: slmc-divergent-barrier
// LIST: slmc-group-local-race
// LIST: slmc-rules
// LIST: slmc-tile-static-constructor

#include <amp.h>
using namespace concurrency;

struct Counter { Counter() : n(0) {} int n; };

void f(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static Counter c;
// WARN: checks.cpp:[[@LINE-1]]:25: warning: the default constructor of 'tile_static' variable 'c' of type 'Counter' will not run [slmc-tile-static-constructor]
// WERR: checks.cpp:[[@LINE-2]]:25: error: the default constructor of 'tile_static' variable 'c' of type 'Counter' will not run [slmc-tile-static-constructor,-warnings-as-errors]
// ONLYWARN: checks.cpp:[[@LINE-3]]:25: warning: the default constructor
// BIGOK: checks.cpp:[[@LINE-4]]:25: warning: the default constructor
// NOWARN-NOT: will not run
// WARN: checks.cpp:[[@LINE-10]]:18: note: constructor declared here
// NOWARN-NOT: constructor declared here
#ifdef INIT
    tile_static int x = 42;
// ALL: checks.cpp:[[@LINE-1]]:21: error: 'tile_static' variable 'x' cannot have an initializer [slmc-rules]
// ONLYWARN-NOT: error
// FIXED: {{^}}    tile_static int x;{{$}}
#endif
#ifdef BIG
    tile_static float big[32][600];
// LIMIT: checks.cpp:[[@LINE-1]]:23: error: 'big' brings the group-local memory of this kernel to 76804 bytes, more than the 65536 bytes a work-group can have [slmc-rules]
// LIMIT-NEXT: tile_static float big
// LIMIT: checks.cpp:[[@LINE-19]]:3: note: in the kernel launched here
// LIMIT: checks.cpp:[[@LINE-19]]:25: note: 'c' takes 4 bytes
// BIGOK-NOT: group-local memory
    big[t.local[0]][0] = 0;
#endif
    c.n = 1;
    av[t.global] = c.n;
  });
}
// ALL-NOT: clang-diagnostic
