// Errors of the array-notation pre-pass: clang-style, with the line and
// column of the offending section in this file, the source line and a
// caret; slmc++ stops with exit code 1 before any pass runs.
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s --strict-whitespace
// RUN: not %slmcxx -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not test -e %t.o
// COUNT: 7 errors generated.

void f(float *a, float *b, float (*m)[4], int n, float x) {
  a[0:n] = m[0:n][0:4];
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:12: error: rank mismatch in array notation: this section has rank 2, but the statement has rank 1
  // CHECK-NEXT: {{^}}   [[@LINE-2]] |   a[0:n] = m[0:n][0:4];
  // CHECK-NEXT: {{^}}      |            ^

  a[0:10] = b[2:5] * 2;
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:14: error: length mismatch in array notation: this section has length 5 in dimension 0, but an earlier one has 10
  // CHECK-NEXT: {{^}}   [[@LINE-2]] |   a[0:10] = b[2:5] * 2;
  // CHECK-NEXT: {{^}}      |              ^

  x = b[0:n];
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:7: error: rank mismatch in array notation: cannot assign an expression of rank 1 to a scalar (rank 0) left-hand side

  m[0:n][0:4] = b[0:n] + m[0:n][0:4];
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:17: error: rank mismatch in array notation: this section has rank 1, but the statement has rank 2

  if (a[0:n] > 0)
    x = 1;
  // CHECK: array-notation-errors.cpp:[[@LINE-2]]:7: error: array section in the header of 'if' is not supported (only __sec_reduce_* results, which are scalars, may appear there)

  x = __sec_reduce_add(x * 2);
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:7: error: the argument of '__sec_reduce_add' has no array section (rank 0)

  const char *s = "a[0:1] = b[0:2][0:3]"; // comments too: a[0:1] = b[0:2][0:3]
  // Tabs count as one column, as in clang (and show as spaces).
	a[:n] = 0;
  // CHECK: array-notation-errors.cpp:[[@LINE-1]]:3: error: array section needs both a lower bound and a length ('[lower:length]'), or '[:]' for a whole dimension
  // CHECK-NEXT: {{^}}   [[@LINE-2]] |         a[:n] = 0;
  // CHECK-NEXT: {{^}}      |          ^
}
// CHECK: 7 errors generated.
