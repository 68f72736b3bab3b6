// slmc-clangd --check=FILE opens FILE in an LSP session with slmc-clangd
// and prints what the editor is sent, in the compiler's format: lines and
// columns in bytes, notes (related information), fix-its (quick fixes).
// RUN: rm -rf %t && mkdir -p %t/default %t/big
// RUN: %slmc-cdb %t/default %s %slmcxx -O2
// RUN: %slmc-cdb %t/big %s %slmcxx -O2 -DBIG
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/default | FileCheck %s
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/big | FileCheck %s --check-prefix=BIG
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/big --group-memory-limit=131072 | FileCheck %s --check-prefix=BIGOK
//
// The limit of a project's commands: slmc++'s option (which its .clangd
// removes for clang's driver, see docs/editors.md) or the plugin's.
// RUN: mkdir -p %t/limit/config/clangd %t/plugin
// RUN: %slmc-cdb %t/limit %s %slmcxx -O2 -DBIG --group-memory-limit=131072
// RUN: printf 'CompileFlags:\n  Remove: [--group-memory-limit=*]\n' > %t/limit/config/clangd/config.yaml
// RUN: env XDG_CONFIG_HOME=%t/limit/config not %slmc-clangd --check=%s --compile-commands-dir=%t/limit | FileCheck %s --check-prefix=BIGOK
// RUN: %slmc-cdb %t/plugin %s %clangxx -std=c++17 %plugin -fplugin-arg-slmc-group-memory-limit=131072 -DBIG
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/plugin | FileCheck %s --check-prefix=BIGOK

#include <amp.h>
using namespace concurrency;

void f(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
// BIGOK-NOT: group-local memory
// BIGOK-NOT: Unknown argument
    /* é */ tile_static int x = 42;
// CHECK: check.cpp:[[@LINE-1]]:30: error: 'tile_static' variable 'x' cannot have an initializer (fix available)
// CHECK-NEXT: fix-it:"{{.*}}check.cpp":{[[@LINE-2]]:31-[[@LINE-2]]:36}:""
#ifdef BIG
    tile_static float big[32][600];
// The limit error at the variable that crosses it; the kernel and the other
// variable as related information.
// BIG: check.cpp:[[@LINE-3]]:23: error: 'big' brings the group-local memory of this kernel to 76804 bytes, more than the 65536 bytes a work-group can have
// BIG-NEXT: check.cpp:[[@LINE-11]]:3: note: In the kernel launched here
// BIG-NEXT: check.cpp:[[@LINE-9]]:30: note: 'x' takes 4 bytes
    big[t.local[0]][0] = 0;
#endif
    if (t.local[0] < 16)
      t.barrier.wait();
// CHECK: check.cpp:[[@LINE-1]]:7: warning: Tile barrier is under thread-dependent control flow; every thread of the tile must reach it
// CHECK-NEXT: check.cpp:[[@LINE-3]]:9: note: This condition depends on the thread's index
    av[t.global] = x;
  });
}
