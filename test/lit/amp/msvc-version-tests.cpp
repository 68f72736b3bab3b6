// C++ AMP code was only ever built by MSVC, which defines _MSC_VER; slmc++
// does not. A condition that reads _MSC_VER without testing whether it is
// defined silently takes the branch of an MSVC older than any (0 < 1800),
// which for MSVC-era libraries means code for that compiler's internals.
// Warned in user files of a C++ AMP translation unit; the fix the warning
// names (-D_MSC_VER= with -fms-compatibility: Clang's own headers read
// _MSC_VER as MSVC's, with its native wchar_t) or a defined() test
// silences it.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fms-compatibility -D_MSC_VER=1800 -fsyntax-only -Xclang -verify=defined %s
// RUN: %slmcxx -Wno-slmc-msc-ver -fsyntax-only -Xclang -verify=defined %s
// defined-no-diagnostics

#include <amp.h>

// (A declaration first: slmc-clangd reads the conditions that follow the
// main file's leading directives, which clangd's preamble holds apart.)
int first_declaration;

#if _MSC_VER < 1800 // expected-warning {{'_MSC_VER' is not defined, so this condition reads it as 0, as no MSVC version would; C++ AMP code was written for MSVC: build it in MSVC's compatibility mode with the version it was written for (-fms-compatibility -D_MSC_VER=1800 for Visual Studio 2013, 1700 for 2012)}}
int old_msvc_path;
#elif _MSC_VER >= 1900 // not evaluated: the first branch was taken
#endif

#if 0
#if _MSC_VER >= 1700 // skipped: never evaluated
#endif
#endif

#if defined(_MSC_VER) && _MSC_VER >= 1700 // the author tested for MSVC
#endif
#ifdef _MSC_VER
#endif

#if !(_MSC_VER >= 1700) // expected-warning {{'_MSC_VER' is not defined}}
#endif

int main() { return 0; }
