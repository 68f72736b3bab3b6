//===- CmPrepassTest.cpp - The C for Metal source pre-passes --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/CmRefParameters.h"
#include "Prepass/CmSimdControlFlow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace slmc;

namespace {

const std::string Cm = "#include <cm/cm.h>\n";

std::string forwarded(const std::string &Body) {
  std::optional<std::string> Out = addCmRefForwarders(Cm + Body);
  return Out ? Out->substr(Cm.size()) : std::string("<unchanged>");
}

size_t lines(const std::string &S) { return std::count(S.begin(), S.end(), '\n'); }

TEST(CmRefParameters, AddsAnOverloadAfterTheBody) {
  std::string In = "template <typename T, int N>\n"
                   "_GENX_ void t(matrix_ref<T, N, N> a, matrix_ref<T, N, N> b) {\n"
                   "  b = a;\n"
                   "}\n"
                   "_GENX_MAIN_ void k() {}\n";
  std::string Out = forwarded(In);
  EXPECT_EQ(Out, "template <typename T, int N>\n"
                 "_GENX_ void t(matrix_ref<T, N, N> a, matrix_ref<T, N, N> b) {\n"
                 "  b = a;\n"
                 "} SLMC_CM_REF_OVERLOAD_2(t, 1, 1)\n"
                 "_GENX_MAIN_ void k() {}\n");
  EXPECT_EQ(lines(Out), lines(In));
}

TEST(CmRefParameters, MarksOnlyByValueRefParameters) {
  EXPECT_EQ(forwarded("template <class T, int N> inline _GENX_ void f(SurfaceIndex s, "
                      "uint off, vector_ref<T, N> v, vector<T, N> w) {}"),
            "template <class T, int N> inline _GENX_ void f(SurfaceIndex s, uint off, "
            "vector_ref<T, N> v, vector<T, N> w) {} SLMC_CM_REF_OVERLOAD_4(f, 0, 0, 1, 0)");
  // Qualified, const, unnamed: still a view taken by value.
  EXPECT_EQ(forwarded("template <class T> void g(const cm::vector_ref<T, 4> const, int) {}"),
            "template <class T> void g(const cm::vector_ref<T, 4> const, int) {} "
            "SLMC_CM_REF_OVERLOAD_2(g, 1, 0)");
  // A reference to a view is bound as C++ binds it.
  EXPECT_EQ(forwarded("template <class T> void h(vector_ref<T, 4> &v) {}"), "<unchanged>");
  EXPECT_EQ(forwarded("template <class T> void h(vector_ref<T, 4> *v) {}"), "<unchanged>");
}

TEST(CmRefParameters, OneOverloadPerArityOfDefaultArguments) {
  EXPECT_EQ(forwarded("template <class T, int R, int C> void z(matrix_ref<T, R, C> m, "
                      "int k = 0, int j = f<1, 2>(3)) {}"),
            "template <class T, int R, int C> void z(matrix_ref<T, R, C> m, int k = 0, "
            "int j = f<1, 2>(3)) {} SLMC_CM_REF_OVERLOAD_1(z, 1) "
            "SLMC_CM_REF_OVERLOAD_2(z, 1, 0) SLMC_CM_REF_OVERLOAD_3(z, 1, 0, 0)");
}

TEST(CmRefParameters, OverloadsShareOneAfterTheLast) {
  std::string Out = forwarded("template <class T, int N> void fill(vector_ref<T, N> v, T x) {}\n"
                              "template <class T> void fill(T x, T y) {}\n"
                              "template <class T, int R, int C>\n"
                              "void fill(matrix_ref<T, R, C> m, T x) {}\n"
                              "namespace a { template <class T> void fill(T x, "
                              "vector_ref<T, 2> v) {} }\n");
  EXPECT_EQ(Out, "template <class T, int N> void fill(vector_ref<T, N> v, T x) {}\n"
                 "template <class T> void fill(T x, T y) {}\n"
                 "template <class T, int R, int C>\n"
                 "void fill(matrix_ref<T, R, C> m, T x) {} SLMC_CM_REF_OVERLOAD_2(fill, 1, 0)\n"
                 "namespace a { template <class T> void fill(T x, vector_ref<T, 2> v) {} "
                 "SLMC_CM_REF_OVERLOAD_2(fill, 0, 1) }\n");
}

TEST(CmRefParameters, LeavesOtherTemplatesAlone) {
  for (const char *In : {
           // declared only; a deleted one
           "template <class T> void f(vector_ref<T, 4> v);",
           "template <class T> void f(vector_ref<T, 4> v) = delete;",
           // not function templates
           "template <class T> struct S { void f(vector_ref<T, 4> v) {} };",
           "template <class T> using V = vector_ref<T, 4>;",
           "template <class T> constexpr int n = sizeof(vector_ref<T, 4>);",
           // members, in a class or out of it
           "struct S { template <class T> void f(vector_ref<T, 4> v) {} };",
           "template <class T> void S<T>::f(vector_ref<T, 4> v) {}",
           "template <class T> template <class U> void S<T>::f(vector_ref<U, 4> v) {}",
           // explicit specialisations and instantiations
           "template <> void f<int>(vector_ref<int, 4> v) {}",
           "template void f<int>(vector_ref<int, 4> v);",
           // packs, kernels, bodies in functions, macros
           "template <class... T> void f(vector_ref<int, 4> v, T... t) {}",
           "template <class T> _GENX_MAIN_ void k(vector_ref<T, 4> v) {}",
           "void g() { struct L { template <class T> void f(vector_ref<T, 4>) {} }; }",
           "#define DEF template <class T> void f(vector_ref<T, 4> v) {}\n",
           // a name split by a line continuation (a fuzzer's finding: the
           // overload would have copied the newline)
           "template <class T> void spl\\\nit(vector_ref<T, 4> v) {}",
           // an operator
           "template <class T> vector<T, 4> operator+(vector_ref<T, 4> v, int) { return v; }",
       })
    EXPECT_EQ(forwarded(In), "<unchanged>") << In;
}

TEST(CmRefParameters, OnlyInCmCode) {
  EXPECT_FALSE(addCmRefForwarders("template <class T> void f(vector_ref<T, 4> v) {}"));
  EXPECT_FALSE(addCmRefForwarders(Cm + "template <class T> void f(vector<T, 4> v) {}"));
}

TEST(CmRefParameters, MalformedTextIsLeftToTheParser) {
  for (const char *In : {"template <class T> void f(vector_ref<T, 4> v) {",
                         "template <class T> void f(vector_ref<T, 4 v) {}",
                         "template <class T void f(vector_ref<T, 4> v) {}",
                         "template", "template <", "} template <class T> f(vector_ref<T,4>) {}}",
                         "template <class T> void f(vector_ref<T, 4> v,) {}"})
    (void)addCmRefForwarders(Cm + In); // must not crash; the parser reports it
}

std::string masked(const std::string &Body) {
  std::optional<std::string> Out = maskCmSimdControlFlow(Cm + Body);
  return Out ? Out->substr(Cm.size()) : std::string("<unchanged>");
}

const std::string Assign = "::slmc::cm::detail::simd_assign(slmc_simd_ctx, ";

TEST(CmSimdControlFlow, AssignmentsInABlockTakeItsChannels) {
  std::string In = "SIMD_IF_BEGIN (v > 0) {\n"
                   "  x = a + b;\n"
                   "  m -= 1;\n"
                   "  v.select<4, 1>(0) *= 2;\n"
                   "} SIMD_IF_END;\n"
                   "x = 3;\n";
  std::string Out = masked(In);
  EXPECT_EQ(Out, "SIMD_IF_BEGIN (v > 0) {\n"
                 "  " + Assign + "x , a + b);\n"
                 "  " + Assign + "m , (m) - ( 1));\n"
                 "  " + Assign + "v.select<4, 1>(0) , (v . select < 4 , 1 > ( 0 )) * ( 2));\n"
                 "} SIMD_IF_END;\n"
                 "x = 3;\n");
  EXPECT_EQ(lines(Out), lines(In));
}

TEST(CmSimdControlFlow, StatementsAfterControlHeads) {
  EXPECT_EQ(masked("SIMD_DO_WHILE_BEGIN { for (int i = 0; i < 2; ++i) x += 1; "
                   "if (k) y = 2; else y = 3; } SIMD_DO_WHILE_END(x < 4);"),
            "SIMD_DO_WHILE_BEGIN { for (int i = 0; i < 2; ++i) " + Assign +
                "x , (x) + ( 1)); if (k) " + Assign + "y , 2); else " + Assign +
                "y , 3); } SIMD_DO_WHILE_END(x < 4);");
}

TEST(CmSimdControlFlow, DeclarationsAndConditionsStay) {
  EXPECT_EQ(masked("SIMD_IF_BEGIN (a == b) { vector<int, 8> t = a; int k = 1; "
                   "const float *p = q; } SIMD_ELSEIF (a != b) { } SIMD_IF_END;"),
            "<unchanged>");
}

TEST(CmSimdControlFlow, CallsThatWriteTakeTheChannels) {
  EXPECT_EQ(masked("SIMD_IF_BEGIN (v) { read(s, 0, o, d); v.merge(a, m); k = v.any(); "
                   "t = cm_sum<int>(v); w.read(); } SIMD_IF_END; read(s, 0, v);"),
            "SIMD_IF_BEGIN (v) { ::slmc::cm::detail::simd_read(slmc_simd_ctx, s, 0, o, d); "
            "v.simd_merge(slmc_simd_ctx, a, m); " + Assign +
                "k , v.simd_any(slmc_simd_ctx)); " + Assign +
                "t , ::slmc::cm::detail::simd_cm_sum<int>(slmc_simd_ctx, v)); w.read(); } "
                "SIMD_IF_END; read(s, 0, v);");
}

TEST(CmSimdControlFlow, OnlyCmFilesWithBlocks) {
  EXPECT_FALSE(maskCmSimdControlFlow("SIMD_IF_BEGIN (v) { x = 1; } SIMD_IF_END;"));
  EXPECT_EQ(masked("void f() { x = 1; }"), "<unchanged>");
  // Unbalanced or malformed text is left to the parser.
  for (const char *In : {"SIMD_IF_BEGIN (", "SIMD_IF_BEGIN { x = ", "SIMD_DO_WHILE_BEGIN } } x =;",
                         "SIMD_IF_BEGIN (v) { x \\\n= 1; }", "SIMD_IF_BEGIN(v) { = 1; }"})
    (void)maskCmSimdControlFlow(Cm + In);
}

} // namespace
