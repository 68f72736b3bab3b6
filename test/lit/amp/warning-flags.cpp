// slmc's warnings obey clang's warning flags: named groups, -Werror,
// -w, and parseable fix-its for the initializer rule.
// RUN: %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %slmcxx -fsyntax-only -Wno-slmc-tile-static-constructor %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %slmcxx -fsyntax-only -Wno-slmc %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: not %slmcxx -fsyntax-only -Werror=slmc-tile-static-constructor %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %slmcxx -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %slmcxx -fsyntax-only -w %s 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: not %slmcxx -fsyntax-only -DINIT -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: not %slmcxx -fsyntax-only -DINIT -fdiagnostics-format=msvc %s 2>&1 | FileCheck %s --check-prefix=MSVC

#include <amp.h>
using namespace concurrency;

struct Counter { Counter() : n(0) {} int n; };

void f(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static Counter c;
#ifdef INIT
    tile_static int x = 42;
#else
    tile_static int x;
#endif
    c.n = x;
    av[t.global] = c.n;
  });
}

// DEFAULT: warning-flags.cpp:[[@LINE-11]]:25: warning: the default constructor of 'tile_static' variable 'c' of type 'Counter' will not run
// DEFAULT: note: constructor declared here
// DEFAULT: 1 warning generated.
// OFF-NOT: warning
// ERR: error: the default constructor of 'tile_static' variable 'c' of type 'Counter' will not run
// FIXIT: error: 'tile_static' variable 'x' cannot have an initializer
// FIXIT: fix-it:"{{.*}}warning-flags.cpp":{[[@LINE-15]]:22-[[@LINE-15]]:27}:""
// MSVC: warning-flags.cpp([[@LINE-16]],{{[0-9]+}}): error: 'tile_static' variable 'x' cannot have an initializer
