// Plain C++ errors are clang's own, with clang's exit code; slmc++ stops
// before the device passes and writes no output.
// RUN: rm -f %t.o
// RUN: not %slmcxx -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s -DVERIFY

#include <amp.h>

#ifdef VERIFY
int f() { return undeclared_name; } // expected-error {{use of undeclared identifier 'undeclared_name'}}
#else
int f() { return undeclared_name; }
#endif

// CHECK: cxx-errors.cpp:[[@LINE-3]]:18: error: use of undeclared identifier 'undeclared_name'
// CHECK: 1 error generated.
