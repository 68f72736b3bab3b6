//===- AmpPrepassTest.cpp - C++ AMP sources as MSVC accepted them ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/AmpMsvcSource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace slmc;

namespace {

const std::string Amp = "#include <amp.h>\n";

std::string rewritten(const std::string &Body) {
  std::optional<std::string> Out = rewriteAmpMsvcSource(Amp + Body);
  return Out ? Out->substr(Amp.size()) : std::string("<unchanged>");
}

size_t lines(const std::string &S) { return std::count(S.begin(), S.end(), '\n'); }

TEST(AmpMsvcSource, MemberTemplatesOfDependentObjects) {
  EXPECT_EQ(rewritten("template <int TS, class T> void f(array_view<T, 2> d) {\n"
                      "  auto e = d.extent.tile<TS, TS>();\n"
                      "  auto r = d.reinterpret_as<int>(); auto v = p->view_as<2>(x);\n"
                      "}\n"),
            "template <int TS, class T> void f(array_view<T, 2> d) {\n"
            "  auto e = d.extent.template tile<TS, TS>();\n"
            "  auto r = d.template reinterpret_as<int>(); auto v = p->template view_as<2>(x);\n"
            "}\n");
  // Comparisons and names that are not members stay.
  EXPECT_EQ(rewritten("template <int n> void c() {\n"
                      "  bool b = s.tile < n; int tile = 3; auto t = tile<4>();\n"
                      "}\n"),
            "<unchanged>");
  // Outside templates nothing is dependent: every tiled launch keeps its
  // columns (what the editor's positions point at).
  EXPECT_EQ(rewritten("void f(array_view<int, 2> d) {\n"
                      "  parallel_for_each(d.extent.tile<16, 16>(), [=](tiled_index<16, 16> t)\n"
                      "    restrict(amp) { d.view_as<2>(e); });\n"
                      "}\n"),
            "<unchanged>");
  // Members of class templates, and lambdas in function templates.
  EXPECT_EQ(rewritten("template <class T> struct S {\n"
                      "  void g(T &d) { auto t = d.extent.tile<4>(); }\n"
                      "};\n"
                      "template <int N> void h(array<int, 1> &a) {\n"
                      "  parallel_for_each(a.extent.tile<N>(), [&](tiled_index<N> t) restrict(amp) {\n"
                      "    auto v = a.reinterpret_as<float>();\n"
                      "  });\n"
                      "}\n"),
            "template <class T> struct S {\n"
            "  void g(T &d) { auto t = d.extent.template tile<4>(); }\n"
            "};\n"
            "template <int N> void h(array<int, 1> &a) {\n"
            "  parallel_for_each(a.extent.template tile<N>(), [&](tiled_index<N> t) restrict(amp) {\n"
            "    auto v = a.template reinterpret_as<float>();\n"
            "  });\n"
            "}\n");
  // Already written with the keyword.
  EXPECT_EQ(rewritten("template <int n> void c() { auto e = d.extent.template tile<4>(); }\n"),
            "<unchanged>");
}

TEST(AmpMsvcSource, VoidMainReturnsInt) {
  std::string In = "void main()\n"
                   "{\n"
                   "  if (bad) return;\n"
                   "  parallel_for_each(e, [=](index<1> i) restrict(amp) {\n"
                   "    if (i[0] > 4) return;\n"
                   "    a[i] = 0;\n"
                   "  });\n"
                   "  auto g = [&]() mutable { return; };\n"
                   "  { return ; }\n"
                   "}\n";
  std::string Out = rewritten(In);
  EXPECT_EQ(Out, "int  main()\n"
                 "{\n"
                 "  if (bad) return 0;\n"
                 "  parallel_for_each(e, [=](index<1> i) restrict(amp) {\n"
                 "    if (i[0] > 4) return;\n"
                 "    a[i] = 0;\n"
                 "  });\n"
                 "  auto g = [&]() mutable { return; };\n"
                 "  { return  0; }\n"
                 "}\n");
  EXPECT_EQ(lines(Out), lines(In));
}

TEST(AmpMsvcSource, OnlyMainDefinedAtFileScope) {
  EXPECT_EQ(rewritten("void main();\n"), "<unchanged>");
  EXPECT_EQ(rewritten("struct S { void main() { return; } };\n"), "<unchanged>");
  EXPECT_EQ(rewritten("void S::main() { return; }\n"), "<unchanged>");
  EXPECT_EQ(rewritten("int main() { return 0; }\n"), "<unchanged>");
  EXPECT_EQ(rewritten("#define M void main() {}\n"), "<unchanged>");
}

TEST(AmpMsvcSource, OtherSourcesAreUntouched) {
  EXPECT_FALSE(rewriteAmpMsvcSource("template <int N> void main() { x.tile<4>(); }\n"));
  EXPECT_TRUE(isAmpSource("void f() restrict(amp) {}"));
  EXPECT_TRUE(isAmpSource("#include <amp.h>"));
  EXPECT_FALSE(isAmpSource("#include <sycl/sycl.hpp>"));
}

} // namespace
