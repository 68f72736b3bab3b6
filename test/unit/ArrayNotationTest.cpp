//===- ArrayNotationTest.cpp - The Cilk Plus array-notation pre-pass ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/ArrayNotation.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

using namespace slmc;

namespace {

const std::string Sec = "[[clang::annotate(\"slmc.cilk.section\")]] ";
const std::string Red = "[[clang::annotate(\"slmc.cilk.reduction\")]] ";

/// The loop header of dimension `D` of a section statement.
std::string loop(unsigned D, const std::string &Len) {
  std::string I = "__sec_i" + std::to_string(D);
  return Sec + "for (long " + I + " = 0; " + I + " < (" + Len + "); ++" + I + ") ";
}

size_t lines(const std::string &S) { return std::count(S.begin(), S.end(), '\n'); }

std::vector<std::string> splitLines(const std::string &S) {
  std::vector<std::string> V;
  size_t P = 0, Q;
  while ((Q = S.find('\n', P)) != std::string::npos) {
    V.push_back(S.substr(P, Q - P));
    P = Q + 1;
  }
  return V;
}

/// Rewrites `Src`, which must give no diagnostics; the result keeps the
/// line count.
std::string rewrite(const std::string &Src, bool ExpectChange = true) {
  ArrayNotationResult R = rewriteArrayNotation(Src);
  for (const PrepassDiagnostic &D : R.Diags)
    ADD_FAILURE() << "unexpected diagnostic " << D.Line << ":" << D.Column << ": "
                  << D.Message;
  EXPECT_EQ(R.Changed, ExpectChange);
  EXPECT_EQ(lines(R.Text), lines(Src)) << R.Text;
  if (!R.Changed)
    EXPECT_EQ(R.Text, Src);
  return R.Text;
}

/// Rewrites one statement inside a function body.
std::string stmt(const std::string &S) {
  std::string Out = rewrite("void f() {\n  " + S + "\n}\n");
  std::string Prefix = "void f() {\n  ", Suffix = "\n}\n";
  EXPECT_EQ(Out.substr(0, Prefix.size()), Prefix);
  EXPECT_GE(Out.size(), Prefix.size() + Suffix.size());
  return Out.substr(Prefix.size(), Out.size() - Prefix.size() - Suffix.size());
}

std::vector<PrepassDiagnostic> diags(const std::string &Src) {
  ArrayNotationResult R = rewriteArrayNotation(Src);
  EXPECT_EQ(R.Text, Src);
  EXPECT_FALSE(R.Diags.empty());
  return R.Diags;
}

::testing::AssertionResult hasDiag(const std::vector<PrepassDiagnostic> &Ds, unsigned Line,
                                   unsigned Col, const std::string &Text) {
  std::string All;
  for (const PrepassDiagnostic &D : Ds) {
    if (D.Line == Line && D.Column == Col && D.Message.find(Text) != std::string::npos)
      return ::testing::AssertionSuccess();
    All += "\n  " + std::to_string(D.Line) + ":" + std::to_string(D.Column) + ": " +
           D.Message;
  }
  return ::testing::AssertionFailure()
         << "no diagnostic at " << Line << ":" << Col << " containing '" << Text
         << "'; got:" << All;
}

// ---- sections ---------------------------------------------------------------

TEST(ArrayNotation, SeedMatrixMultiplyTileCopy) {
  // The second-level nest of Intel's SLM matrix multiply (seed 000, line 18).
  EXPECT_EQ(stmt("slm_atile[:][:] = A[tg_y:SLM_TILE_Y][super_k:SLM_TILE_K];"),
            loop(0, "SLM_TILE_Y") + loop(1, "SLM_TILE_K") +
                "{ slm_atile[__sec_i0][__sec_i1] = A[(tg_y) + __sec_i0][(super_k) + "
                "__sec_i1]; }");
  // The exact text of the brief.
  EXPECT_EQ(stmt("slm_atile[:][:] = A[tg_y:SLM_TILE_Y][super_k:SLM_TILE_K];"),
            "[[clang::annotate(\"slmc.cilk.section\")]] for (long __sec_i0 = 0; __sec_i0 < "
            "(SLM_TILE_Y); ++__sec_i0) [[clang::annotate(\"slmc.cilk.section\")]] for (long "
            "__sec_i1 = 0; __sec_i1 < (SLM_TILE_K); ++__sec_i1) { slm_atile[__sec_i0]"
            "[__sec_i1] = A[(tg_y) + __sec_i0][(super_k) + __sec_i1]; }");
}

TEST(ArrayNotation, WholeDimensionsUseExtentOf) {
  // Inner extents name no index variable: `[0]` stands for the outer
  // dimensions (only the type matters).
  EXPECT_EQ(stmt("ctile[:][:] = (float)0;"),
            loop(0, "::slmc::cilk::extent_of(ctile)") +
                loop(1, "::slmc::cilk::extent_of(ctile[0])") +
                "{ ctile[__sec_i0][__sec_i1] = (float)0; }");
  EXPECT_EQ(stmt("ctile[y][:] += atile[y][k] * btile[:];"),
            loop(0, "::slmc::cilk::extent_of(ctile[y])") +
                "{ ctile[y][__sec_i0] += atile[y][k] * btile[__sec_i0]; }");
  // An explicit length wins over an extent, wherever it is.
  EXPECT_EQ(stmt("a[:] = b[x:n];"), loop(0, "n") + "{ a[__sec_i0] = b[(x) + __sec_i0]; }");
  EXPECT_EQ(stmt("m[0:n][:] = 1;"),
            loop(0, "n") + loop(1, "::slmc::cilk::extent_of(m[0])") +
                "{ m[(0) + __sec_i0][__sec_i1] = 1; }");
  ArrayNotationResult R = rewriteArrayNotation("void f() { a[:] = 0; }");
  EXPECT_TRUE(R.NeedsCilkHeader);
  R = rewriteArrayNotation("void f() { a[0:2] = 0; }");
  EXPECT_FALSE(R.NeedsCilkHeader);
}

TEST(ArrayNotation, Strides) {
  EXPECT_EQ(stmt("c[0:n:2] = a[1:n:2];"),
            loop(0, "n") + "{ c[(0) + __sec_i0 * (2)] = a[(1) + __sec_i0 * (2)]; }");
  EXPECT_EQ(stmt("c[n - 1:n:-1] = a[0:n];"),
            loop(0, "n") + "{ c[(n - 1) + __sec_i0 * (-1)] = a[(0) + __sec_i0]; }");
}

TEST(ArrayNotation, CompoundAssignment) {
  EXPECT_EQ(stmt("c[lo:len] += a[0:len] * 2;"),
            loop(0, "len") + "{ c[(lo) + __sec_i0] += a[(0) + __sec_i0] * 2; }");
  EXPECT_EQ(stmt("slm_ctile[t_y:TILE_Y][t_x:TILE_X] += ctile[:][:];"),
            loop(0, "TILE_Y") + loop(1, "TILE_X") +
                "{ slm_ctile[(t_y) + __sec_i0][(t_x) + __sec_i1] += ctile[__sec_i0][__sec_i1]; }");
  EXPECT_EQ(stmt("m[0:4] <<= 1;"), loop(0, "4") + "{ m[(0) + __sec_i0] <<= 1; }");
}

TEST(ArrayNotation, ScalarBroadcast) {
  EXPECT_EQ(stmt("c[0:n] = x;"), loop(0, "n") + "{ c[(0) + __sec_i0] = x; }");
  EXPECT_EQ(stmt("c[0:n] = a[i] + b[j][k];"),
            loop(0, "n") + "{ c[(0) + __sec_i0] = a[i] + b[j][k]; }");
}

TEST(ArrayNotation, ElementwiseWithCalls) {
  EXPECT_EQ(stmt("c[0:n] = sqrtf(a[0:n]) + f(b[0:n], 3);"),
            loop(0, "n") +
                "{ c[(0) + __sec_i0] = sqrtf(a[(0) + __sec_i0]) + f(b[(0) + __sec_i0], 3); }");
  // A call statement maps over the section; so do ++ and member access.
  EXPECT_EQ(stmt("f(a[0:n], b[0:n]);"),
            loop(0, "n") + "{ f(a[(0) + __sec_i0], b[(0) + __sec_i0]); }");
  EXPECT_EQ(stmt("a[0:n]++;"), loop(0, "n") + "{ a[(0) + __sec_i0]++; }");
  EXPECT_EQ(stmt("p->f[0:n] = s.g[1:n] + (*q)[0:n] + ::h[0:n] + this->k[0:n].x;"),
            loop(0, "n") + "{ p->f[(0) + __sec_i0] = s.g[(1) + __sec_i0] + (*q)[(0) + "
                           "__sec_i0] + ::h[(0) + __sec_i0] + this->k[(0) + __sec_i0].x; }");
  // Non-section subscripts keep their place in the chain.
  EXPECT_EQ(stmt("a[i][0:n] = b[0:n][j];"),
            loop(0, "n") + "{ a[i][(0) + __sec_i0] = b[(0) + __sec_i0][j]; }");
  // A gather: the index is a section.
  EXPECT_EQ(stmt("a[0:n] = b[c[0:n]];"),
            loop(0, "n") + "{ a[(0) + __sec_i0] = b[c[(0) + __sec_i0]]; }");
  EXPECT_EQ(stmt("m[:][:] = __sec_implicit_index(0) * 10 + __sec_implicit_index(1);"),
            loop(0, "::slmc::cilk::extent_of(m)") + loop(1, "::slmc::cilk::extent_of(m[0])") +
                "{ m[__sec_i0][__sec_i1] = ((long)__sec_i0) * 10 + ((long)__sec_i1); }");
}

// ---- reductions -------------------------------------------------------------

std::string reduction(const std::string &Elem, const std::string &Len,
                      const std::string &Init, const std::string &Step) {
  return "[&]() { auto __sec_e = [&](long __sec_i0) { return " + Elem + "; }; " + Init +
         " " + Red + "for (long __sec_i0 = 0; __sec_i0 < (" + Len + "); ++__sec_i0) " +
         Step + " return __sec_acc; }()";
}

TEST(ArrayNotation, ReduceAddAsInitializer) {
  EXPECT_EQ(stmt("float s = __sec_reduce_add(a[0:n]*b[0:n]);"),
            "float s = " +
                reduction("a[(0) + __sec_i0]*b[(0) + __sec_i0]", "n",
                          "auto __sec_acc = decltype(__sec_e(0))(0);",
                          "__sec_acc += __sec_e(__sec_i0);") +
                ";");
  // Exactly.
  EXPECT_EQ(stmt("float s = __sec_reduce_add(a[0:n]*b[0:n]);"),
            "float s = [&]() { auto __sec_e = [&](long __sec_i0) { return a[(0) + "
            "__sec_i0]*b[(0) + __sec_i0]; }; auto __sec_acc = decltype(__sec_e(0))(0); "
            "[[clang::annotate(\"slmc.cilk.reduction\")]] for (long __sec_i0 = 0; __sec_i0 < "
            "(n); ++__sec_i0) __sec_acc += __sec_e(__sec_i0); return __sec_acc; }();");
}

TEST(ArrayNotation, ReduceMul) {
  EXPECT_EQ(stmt("p = __sec_reduce_mul(a[0:n]);"),
            "p = " +
                reduction("a[(0) + __sec_i0]", "n", "auto __sec_acc = decltype(__sec_e(0))(1);",
                          "__sec_acc *= __sec_e(__sec_i0);") +
                ";");
}

TEST(ArrayNotation, ReduceMinMaxStartFromTheFirstElement) {
  EXPECT_EQ(stmt("lo = __sec_reduce_min(a[0:n]);"),
            "lo = " +
                reduction("a[(0) + __sec_i0]", "n",
                          "auto __sec_acc = decltype(__sec_e(0))(); bool __sec_any = false;",
                          "{ auto __sec_v = __sec_e(__sec_i0); if (!__sec_any || __sec_v < "
                          "__sec_acc) __sec_acc = __sec_v; __sec_any = true; }") +
                ";");
  EXPECT_EQ(stmt("hi = __sec_reduce_max(a[:]);"),
            "hi = " +
                reduction("a[__sec_i0]", "::slmc::cilk::extent_of(a)",
                          "auto __sec_acc = decltype(__sec_e(0))(); bool __sec_any = false;",
                          "{ auto __sec_v = __sec_e(__sec_i0); if (!__sec_any || __sec_acc < "
                          "__sec_v) __sec_acc = __sec_v; __sec_any = true; }") +
                ";");
}

TEST(ArrayNotation, ReduceTwoDimensions) {
  EXPECT_EQ(stmt("t = __sec_reduce_add(m[:][0:n]);"),
            "t = [&]() { auto __sec_e = [&](long __sec_i0, long __sec_i1) { return "
            "m[__sec_i0][(0) + __sec_i1]; }; auto __sec_acc = decltype(__sec_e(0, 0))(0); " +
                Red + "for (long __sec_i0 = 0; __sec_i0 < (::slmc::cilk::extent_of(m)); "
                      "++__sec_i0) " +
                Red + "for (long __sec_i1 = 0; __sec_i1 < (n); ++__sec_i1) __sec_acc += "
                      "__sec_e(__sec_i0, __sec_i1); return __sec_acc; }();");
}

TEST(ArrayNotation, ReduceBooleans) {
  EXPECT_EQ(stmt("x = __sec_reduce_all_zero(a[0:n]);"),
            "x = " +
                reduction("a[(0) + __sec_i0]", "n", "int __sec_acc = 1;",
                          "if (!(__sec_e(__sec_i0) == 0)) __sec_acc = 0;") +
                ";");
  EXPECT_EQ(stmt("x = __sec_reduce_any_nonzero(a[0:n]);"),
            "x = " +
                reduction("a[(0) + __sec_i0]", "n", "int __sec_acc = 0;",
                          "if (!(__sec_e(__sec_i0) == 0)) __sec_acc = 1;") +
                ";");
  EXPECT_EQ(stmt("x = __sec_reduce_all_nonzero(a[0:n]);"),
            "x = " +
                reduction("a[(0) + __sec_i0]", "n", "int __sec_acc = 1;",
                          "if (__sec_e(__sec_i0) == 0) __sec_acc = 0;") +
                ";");
  EXPECT_EQ(stmt("x = __sec_reduce_any_zero(a[0:n]);"),
            "x = " +
                reduction("a[(0) + __sec_i0]", "n", "int __sec_acc = 0;",
                          "if (__sec_e(__sec_i0) == 0) __sec_acc = 1;") +
                ";");
}

TEST(ArrayNotation, ReductionInsideLargerExpressions) {
  std::string Add = reduction("a[(0) + __sec_i0]", "n",
                              "auto __sec_acc = decltype(__sec_e(0))(0);",
                              "__sec_acc += __sec_e(__sec_i0);");
  EXPECT_EQ(stmt("y = 2 * __sec_reduce_add(a[0:n]) + 1;"), "y = 2 * " + Add + " + 1;");
  EXPECT_EQ(stmt("return __sec_reduce_add(a[0:n]) / n;"), "return " + Add + " / n;");
  // In a loop header (scalar, so allowed there).
  EXPECT_EQ(stmt("for (int i = 0; i < __sec_reduce_add(a[0:n]); i++) g(i);"),
            "for (int i = 0; i < " + Add + "; i++) g(i);");
}

TEST(ArrayNotation, NestedReductionsGetTheirOwnNames) {
  // In a section statement: the reduction is a scalar operand, with names
  // that do not shadow the statement's.
  EXPECT_EQ(stmt("c[0:n] = a[0:n] - __sec_reduce_add(a[0:n]) / n;"),
            loop(0, "n") +
                "{ c[(0) + __sec_i0] = a[(0) + __sec_i0] - [&]() { auto __sec_1_e = [&](long "
                "__sec_1_i0) { return a[(0) + __sec_1_i0]; }; auto __sec_1_acc = "
                "decltype(__sec_1_e(0))(0); " +
                Red + "for (long __sec_1_i0 = 0; __sec_1_i0 < (n); ++__sec_1_i0) __sec_1_acc "
                      "+= __sec_1_e(__sec_1_i0); return __sec_1_acc; }() / n; }");
  // In a reduction.
  std::string Out = stmt("z = __sec_reduce_add(a[0:n] * __sec_reduce_max(b[0:m]));");
  EXPECT_NE(Out.find("return a[(0) + __sec_i0] * [&]() { auto __sec_1_e = [&](long "
                     "__sec_1_i0) { return b[(0) + __sec_1_i0]; };"),
            std::string::npos)
      << Out;
  // Numbering goes on through the file.
  Out = rewrite("void f() {\n  c[0:n] = __sec_reduce_add(a[0:n]);\n"
                "  d[0:n] = __sec_reduce_add(b[0:n]);\n}\n");
  EXPECT_NE(Out.find("__sec_1_acc"), std::string::npos);
  EXPECT_NE(Out.find("__sec_2_acc"), std::string::npos);
}

TEST(ArrayNotation, ReductionCaptureAtNamespaceScope) {
  // A lambda outside a function may not have a capture-default.
  std::string Out = rewrite("float g = __sec_reduce_add(t[:]);\n"
                            "namespace q { float h = __sec_reduce_add(t[0:4]); }\n"
                            "struct S { float v[3]; float s = __sec_reduce_add(v[:]); };\n");
  EXPECT_EQ(Out.rfind("float g = []() {", 0), 0u) << Out;
  EXPECT_NE(Out.find("float h = []() {"), std::string::npos) << Out;
  EXPECT_NE(Out.find("float s = [&]() {"), std::string::npos) << Out; // captures this
}

// ---- statement contexts -----------------------------------------------------

TEST(ArrayNotation, StatementsInsideControlFlow) {
  EXPECT_EQ(stmt("for (int i = 0; i < 3; i++) c[i:2] = f(a[0:2], b[i]);"),
            "for (int i = 0; i < 3; i++) " + loop(0, "2") +
                "{ c[(i) + __sec_i0] = f(a[(0) + __sec_i0], b[i]); }");
  EXPECT_EQ(stmt("if (c) a[0:n] = 0; else b[0:n] = 1;"),
            "if (c) " + loop(0, "n") + "{ a[(0) + __sec_i0] = 0; } else " + loop(0, "n") +
                "{ b[(0) + __sec_i0] = 1; }");
  EXPECT_EQ(stmt("while (x) { a[0:n] = 0; }"),
            "while (x) { " + loop(0, "n") + "{ a[(0) + __sec_i0] = 0; } }");
  EXPECT_EQ(stmt("switch (x) { case 1: a[0:n] = 0; break; default: b[0:n] = 0; }"),
            "switch (x) { case 1: " + loop(0, "n") + "{ a[(0) + __sec_i0] = 0; } break; "
                "default: " + loop(0, "n") + "{ b[(0) + __sec_i0] = 0; } }");
  EXPECT_EQ(stmt("do a[0:n] = 0; while (x);"),
            "do " + loop(0, "n") + "{ a[(0) + __sec_i0] = 0; } while (x);");
  EXPECT_EQ(stmt("{ x = 1; } a[0:n] = y ? 1 : 2;"),
            "{ x = 1; } " + loop(0, "n") + "{ a[(0) + __sec_i0] = y ? 1 : 2; }");
  EXPECT_EQ(stmt("_Cilk_for (int i = 0; i < n; i++) a[i][0:m] = 0;"),
            "_Cilk_for (int i = 0; i < n; i++) " + loop(0, "m") +
                "{ a[i][(0) + __sec_i0] = 0; }");
  // A lambda in the statement is part of it; a statement in a lambda body
  // is a statement of its own.
  EXPECT_EQ(stmt("g([&] { return 1; }(), a[0:n]);"),
            loop(0, "n") + "{ g([&] { return 1; }(), a[(0) + __sec_i0]); }");
  EXPECT_EQ(stmt("x = [&] { a[0:n] = 0; return 1; }();"),
            "x = [&] { " + loop(0, "n") + "{ a[(0) + __sec_i0] = 0; } return 1; }();");
}

TEST(ArrayNotation, SeedKernelKeepsEveryLine) {
  // oneTBB examples/graph/matmult, with the array notation Intel's sample
  // used (multi-line statement included).
  const std::string Src = R"(__declspec(target(gfx_kernel))
void mm(float A[][K], float B[][X], float C[][X]) {
  _Cilk_for _Thread_group (int tg_y = 0; tg_y < Y; tg_y += SLM_TILE_Y) {
    _Cilk_for _Thread_group (int tg_x = 0; tg_x < X; tg_x += SLM_TILE_X) {
      __thread_group_local float slm_atile[SLM_TILE_Y][SLM_TILE_K];
      for (int super_k = 0; super_k < K; super_k += SLM_TILE_K) {
        slm_atile[:][:] = A[tg_y:SLM_TILE_Y][super_k:SLM_TILE_K];
        _gfx_gpgpu_thread_barrier();
        _Cilk_for (int t_y = 0; t_y < SLM_TILE_Y; t_y += TILE_Y) {
          float ctile[TILE_Y][TILE_X], atile[TILE_Y][TILE_K], btile[TILE_X];
          for (int y_ind = 0; y_ind < TILE_Y; y_ind++) {
            ctile[y_ind][:] += atile[y_ind][k_ind] *
                btile[:];
          }
        }
      }
    }
  }
}
)";
  std::vector<std::string> In = splitLines(Src), Got = splitLines(rewrite(Src));
  ASSERT_EQ(In.size(), Got.size());
  for (size_t I = 0; I < In.size(); ++I) {
    if (I == 6 || I == 11 || I == 12)
      continue;
    EXPECT_EQ(In[I], Got[I]) << "line " << I + 1;
  }
  EXPECT_EQ(Got[6], "        " + loop(0, "SLM_TILE_Y") + loop(1, "SLM_TILE_K") +
                        "{ slm_atile[__sec_i0][__sec_i1] = A[(tg_y) + __sec_i0][(super_k) + "
                        "__sec_i1]; }");
  EXPECT_EQ(Got[11], "            " + loop(0, "::slmc::cilk::extent_of(ctile[y_ind])") +
                         "{ ctile[y_ind][__sec_i0] += atile[y_ind][k_ind] *");
  EXPECT_EQ(Got[12], "                btile[__sec_i0]; }");
}

TEST(ArrayNotation, MultiLineBoundsKeepTheLineCount) {
  // Bounds are copied into the loop header on one line; the lines they
  // spanned come back after the rewritten subscript.
  EXPECT_EQ(rewrite("void f() {\n  c[0:n] = a[0:\n     n] // len\n   ;\n}\n"),
            "void f() {\n  " + loop(0, "n") + "{ c[(0) + __sec_i0] = a[(0) + __sec_i0]\n"
            " // len\n   ; }\n}\n");
  // A reduction over two lines.
  std::string Out = rewrite("void f() {\n  s = __sec_reduce_add(a[0:n] *\n  b[0:n]); t = 1;\n}\n");
  EXPECT_NE(Out.find("return a[(0) + __sec_i0] * b[(0) + __sec_i0]; };"), std::string::npos);
  EXPECT_NE(Out.find("return __sec_acc; }()\n; t = 1;\n}\n"), std::string::npos) << Out;
  // Comments and escaped newlines inside copied bounds.
  Out = rewrite("void f() {\n  c[0:n /* n\n */] = 1;\n  d[0:m // m\n  ] = 2;\n}\n");
  EXPECT_NE(Out.find(loop(0, "n") + "{ c[(0) + __sec_i0]\n = 1; }"), std::string::npos) << Out;
  EXPECT_NE(Out.find(loop(0, "m") + "{ d[(0) + __sec_i0]\n = 2; }"), std::string::npos) << Out;
}

// ---- what is never touched ----------------------------------------------------

TEST(ArrayNotation, StringsCommentsAndLiteralsUntouched) {
  const std::string Src = "// a[0:n] = b[0:n];\n"
                          "/* c[:] = 0; */\n"
                          "const char *s = \"a[0:n] = 1;\", *r = R\"x(b[:] = 2;)x\";\n"
                          "char c = ':', d = '[';\n"
                          "#define SECTION(a) a[0:n] = 0\n"
                          "#pragma offload target(gfx) in(a : length(n))\n"
                          "int main() { return 0; }\n";
  rewrite(Src, /*ExpectChange=*/false);
}

TEST(ArrayNotation, OtherColonsInBracketsUntouched) {
  rewrite("void f() {\n"
          "  x = a[c ? 1 : 2] + b[c ?: 3];\n"
          "  auto l = [v = c ? 1 : 2] { return v; };\n"
          "  [[using gnu: unused]] int q;\n"
          "  for (auto v : w) m[std::max(v, 0)] = 1;\n"
          "  y = m[(c ? a : b)[0]];\n"
          "}\n",
          /*ExpectChange=*/false);
}

// ---- the GNU target attribute -----------------------------------------------

TEST(ArrayNotation, GnuTargetAttribute) {
  EXPECT_EQ(rewrite("__attribute__((target(gfx))) void g();\n"),
            "__attribute__((annotate(\"slmc.cilk.declspec\", \"target(gfx)\"))) void g();\n");
  EXPECT_EQ(rewrite("__attribute__((noinline, target( gfx_kernel ))) void h();\n"),
            "__attribute__((noinline, annotate(\"slmc.cilk.declspec\", "
            "\"target(gfx_kernel)\"))) void h();\n");
  // In a macro, as headers often spell it.
  EXPECT_EQ(rewrite("#define GFX __attribute__((target(gfx)))\nGFX int x;\n"),
            "#define GFX __attribute__((annotate(\"slmc.cilk.declspec\", \"target(gfx)\")))\n"
            "GFX int x;\n");
  // Other targets are clang's own.
  rewrite("__attribute__((target(\"avx2\"))) void k();\n__attribute__((target(mic))) int m;\n",
          /*ExpectChange=*/false);
}

// ---- diagnostics ---------------------------------------------------------------

TEST(ArrayNotation, RankMismatch) {
  auto Ds = diags("void f() {\n  a[0:n] = m[0:n][0:4];\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 12, "rank mismatch in array notation: this section has rank 2, "
                                 "but the statement has rank 1"));
  Ds = diags("void f() {\n  m[0:n][0:4] = b[0:n] + 1;\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 17, "this section has rank 1, but the statement has rank 2"));
  Ds = diags("void f() {\n  x = b[0:n];\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 7, "cannot assign an expression of rank 1 to a scalar"));
  Ds = diags("void f() {\n  float x = b[0:n];\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 13, "cannot initialize a declaration"));
  Ds = diags("void f() {\n  s = __sec_reduce_add(a[0:n] * m[0:n][0:n]);\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 33, "the argument of '__sec_reduce_add' has rank 1"));
  EXPECT_EQ(Ds.size(), 1u);
}

TEST(ArrayNotation, LengthMismatch) {
  auto Ds = diags("void f() {\n  a[0:10] = b[2:5] * c[0:10];\n}\n");
  ASSERT_EQ(Ds.size(), 1u);
  EXPECT_TRUE(hasDiag(Ds, 2, 14, "length mismatch in array notation: this section has "
                                 "length 5 in dimension 0, but an earlier one has 10"));
  Ds = diags("void f() {\n  m[0:4][0:0x8] = n[0:4][1:9u];\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 25, "length 9 in dimension 1, but an earlier one has 8"));
  // Lengths that are not literals are not compared.
  stmt("a[0:10] = b[0:n];");
  stmt("a[0:10] = b[0:1'0];");
}

TEST(ArrayNotation, UnsupportedConstructs) {
  struct Case {
    const char *Stmt;
    unsigned Col;
    const char *Message;
  } Cases[] = {
      {"if (a[0:n] > 0) x = 1;", 7, "array section in the header of 'if' is not supported"},
      {"while (a[0:n]) x = 1;", 10, "header of 'while'"},
      {"return a[0:n];", 10, "in a 'return' statement is not supported"},
      {"a[:n] = 0;", 4, "needs both a lower bound and a length"},
      {"a[1:] = 0;", 4, "needs both a lower bound and a length"},
      {"a[1:2:] = 0;", 4, "needs all three parts"},
      {"a[1:2:3:4] = 0;", 10, "too many ':' in array section"},
      {"x = __sec_reduce_add(y);", 7, "has no array section (rank 0)"},
      {"x = __sec_reduce_min_ind(a[0:n]);", 7, "'__sec_reduce_min_ind' is not supported"},
      {"x = __sec_reduce_add;", 7, "expected '(' after '__sec_reduce_add'"},
      {"a[b[0:2]:n] = 0;", 6, "inside the base or a subscript of another array section"},
      {"a[b[0:n]][0:n] = 0;", 6, "inside the base or a subscript of another array section"},
      {"int v[] = { a[0:2] };", 15, "outside an expression statement"},
      {"y[0:n] = [&] { b[0:n] = 0; return 1; }();", 18,
       "inside another array notation statement"},
      {"x = __sec_reduce_add([&] { return a[0:n]; }());", 37, "inside a lambda or block"},
      {"x = __sec_implicit_index(0);", 7, "'__sec_implicit_index' used outside"},
      {"a[0:n] = __sec_implicit_index(1);", 12, "outside array notation of rank > 1"},
      {"x = __sec_implicit_index(k);", 7, "needs an integer literal argument"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Stmt);
    auto Ds = diags(std::string("void f() {\n  ") + C.Stmt + "\n}\n");
    EXPECT_TRUE(hasDiag(Ds, 2, C.Col, C.Message));
  }
  auto Ds = diags("int g = a[0:3];\n");
  EXPECT_TRUE(hasDiag(Ds, 1, 9, "only supported in statements inside a function body"));
  Ds = diags("void f() {\n  s = __sec_reduce_add(a[0:n] *\n#ifdef X\n  2\n#endif\n  );\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 3, 1, "preprocessor directive inside array notation"));
}

TEST(ArrayNotation, DiagnosticColumnsCountBytes) {
  // As clang counts: a tab is one column.
  auto Ds = diags("void f() {\n\t\ta[0:2] = b[0:3];\n}\n");
  EXPECT_TRUE(hasDiag(Ds, 2, 13, "length mismatch"));
}

TEST(ArrayNotation, PrintsLikeClang) {
  // Tabs shown as spaces to the next multiple of 8, the caret under the
  // section's '['.
  std::string Src = "void f() {\n\ta[0:2] = b[0:3];\n}\n";
  ArrayNotationResult R = rewriteArrayNotation(Src);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printPrepassDiagnostics(OS, "x.cpp", Src, R.Diags);
  EXPECT_EQ(Out, "x.cpp:2:12: error: length mismatch in array notation: this section has "
                 "length 3 in dimension 0, but an earlier one has 2\n"
                 "    2 |         a[0:2] = b[0:3];\n"
                 "      |                   ^\n"
                 "1 error generated.\n");
}

// ---- malformed input ---------------------------------------------------------

TEST(ArrayNotation, UnbalancedBracketsWithNotation) {
  auto Ds = diags("void f() {\n  a[0:n] = (b[0:n];\n}\n");
  ASSERT_EQ(Ds.size(), 1u);
  EXPECT_TRUE(hasDiag(Ds, 3, 1, "unbalanced '}': array notation in this file is not rewritten"));
  Ds = diags("void f() {\n  a[0:n] = b[0:n];\n");
  EXPECT_TRUE(hasDiag(Ds, 1, 10, "unmatched '{'"));
}

TEST(ArrayNotation, ConditionalDirectives) {
  // `#if 0` code is not read (its brackets need not balance, its notation
  // stays as written).
  EXPECT_EQ(rewrite("void f() {\n#if 0\n  { a[0:n] = 1;\n#endif\n  b[0:n] = 2;\n}\n"),
            "void f() {\n#if 0\n  { a[0:n] = 1;\n#endif\n  " + loop(0, "n") +
                "{ b[(0) + __sec_i0] = 2; }\n}\n");
  // Braces opened in both branches: only the first branch is read, as a
  // fallback; both branches' statements outside stay rewritten.
  EXPECT_EQ(rewrite("void f(int c) {\n#ifdef X\n  if (c) {\n#else\n  if (!c) {\n#endif\n"
                    "    a[0:n] = 1;\n  }\n}\n"),
            "void f(int c) {\n#ifdef X\n  if (c) {\n#else\n  if (!c) {\n#endif\n    " +
                loop(0, "n") + "{ a[(0) + __sec_i0] = 1; }\n  }\n}\n");
  // Both branches read when they balance.
  EXPECT_EQ(rewrite("void f() {\n#ifdef X\n  a[0:n] = 1;\n#else\n  a[0:m] = 2;\n#endif\n}\n"),
            "void f() {\n#ifdef X\n  " + loop(0, "n") + "{ a[(0) + __sec_i0] = 1; }\n#else\n  " +
                loop(0, "m") + "{ a[(0) + __sec_i0] = 2; }\n#endif\n}\n");
}

TEST(ArrayNotation, UnbalancedBracketsWithoutNotationAreLeftToClang) {
  for (const char *Src : {"void f() { x = (y; }\n", "}}}\n", "(((\n", "a[0\n",
                          "__attribute__((target(gfx))) void g() {\n"}) {
    ArrayNotationResult R = rewriteArrayNotation(Src);
    EXPECT_TRUE(R.Diags.empty()) << Src;
    EXPECT_EQ(lines(R.Text), lines(Src));
  }
}

TEST(ArrayNotation, EveryPrefixIsSafe) {
  // Cut anywhere (EOF in a string, a comment, a section, a reduction):
  // either a rewrite with the same line count, or diagnostics, never a crash.
  const std::string Src = "// c[0:n]\n"
                          "__attribute__((target(gfx))) float g(float x);\n"
                          "void f(float *a, float (*m)[4], int n) {\n"
                          "  const char *s = \"a[0:1]\"; char c = ':';\n"
                          "  /* m[:][:] */ m[0:n][:] = g(a[0:n:2]) * 2;\n"
                          "  float t = __sec_reduce_add(a[0:n] * __sec_reduce_max(a[1:n]));\n"
                          "  if (t > 0) a[1:n] += t; else { a[:n] = 1; }\n"
                          "  auto l = [&] { return a[c ? 1 : 2]; };\n"
                          "  R\"raw(a[0:n])raw\";\n"
                          "}\n";
  unsigned Rewritten = 0;
  for (size_t N = 0; N <= Src.size(); ++N) {
    std::string Prefix = Src.substr(0, N);
    ArrayNotationResult R = rewriteArrayNotation(Prefix);
    if (R.Diags.empty()) {
      EXPECT_EQ(lines(R.Text), lines(Prefix)) << Prefix;
      Rewritten += R.Changed;
    } else {
      EXPECT_EQ(R.Text, Prefix);
    }
  }
  EXPECT_GT(Rewritten, 0u);
}

TEST(ArrayNotation, GarbageIsSafe) {
  // Deterministic pseudo-random token soup.
  const char *Pieces[] = {"a", "[", "]", ":", "?", "(", ")", "{", "}", ";", "0", "n",
                          "__sec_reduce_add", "__sec_implicit_index", "=", "+=", ",",
                          "\"s", "'", "/*", "*/", "//", "\n", "#if", "[[", "]]", "::",
                          "->", ".", "if", "return", "__attribute__((target(gfx)))"};
  unsigned Seed = 12345;
  for (int Round = 0; Round < 300; ++Round) {
    std::string Src;
    for (int I = 0; I < 60; ++I) {
      Seed = Seed * 1103515245u + 12345u;
      Src += Pieces[(Seed >> 16) % (sizeof(Pieces) / sizeof(*Pieces))];
      Src += (Seed & 1) ? " " : "";
    }
    ArrayNotationResult R = rewriteArrayNotation(Src);
    if (R.Diags.empty())
      EXPECT_EQ(lines(R.Text), lines(Src)) << Src;
  }
}

TEST(ArrayNotation, LinearInTheInput) {
  // 20,000 statements, and one statement with 20,000 sections: a quadratic
  // pass would take minutes.
  std::string Src = "void f(float *a, float *b, int n) {\n";
  for (int I = 0; I < 20000; ++I)
    Src += "  a[0:n] = b[0:n] * " + std::to_string(I) + " + __sec_reduce_add(b[0:n]);\n";
  Src += "  a[0:n] = 0";
  for (int I = 0; I < 20000; ++I)
    Src += " + f(b[0:n], a[1:n])";
  Src += ";\n}\n";
  auto Start = std::chrono::steady_clock::now();
  ArrayNotationResult R = rewriteArrayNotation(Src);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  EXPECT_TRUE(R.Diags.empty());
  EXPECT_TRUE(R.Changed);
  EXPECT_EQ(lines(R.Text), lines(Src));
  EXPECT_LT(Seconds, 20.0);
}

TEST(ArrayNotation, NothingToDo) {
  rewrite("", false);
  rewrite("int main() { int a[4] = {1, 2, 3, 4}; return a[1]; }\n", false);
  ArrayNotationResult R = rewriteArrayNotation("void f() { x = (y; }");
  EXPECT_FALSE(R.Changed);
}

} // namespace

// Where the first array notation is: what the plugin reports (it cannot
// run the pre-pass). Conditionals, lambdas, attributes and '::' in
// brackets are not array notation.
TEST(ArrayNotation, FirstNotationPlace) {
  ArrayNotationResult None = rewriteArrayNotation(
      "int f(int *v, bool c) {\n"
      "  [[maybe_unused]] auto g = [&](int i) { return v[c ? i : 0]; };\n"
      "  return v[::std::size_t(0)] + v[c ? 1 : 0];\n"
      "}\n");
  EXPECT_EQ(None.NotationLine, 0u);
  ArrayNotationResult Section = rewriteArrayNotation(
      "void f(float *a, float *b, int n) {\n"
      "  float x = a[n ? 1 : 0];\n"
      "  a[0:n] = b[:] * x;\n"
      "}\n");
  EXPECT_EQ(Section.NotationLine, 3u);
  EXPECT_EQ(Section.NotationColumn, 4u);
  ArrayNotationResult Reduction = rewriteArrayNotation(
      "float f(float *a) {\n"
      "    return __sec_reduce_add(a[0:4]);\n"
      "}\n");
  EXPECT_EQ(Reduction.NotationLine, 2u);
  EXPECT_EQ(Reduction.NotationColumn, 12u);
  // Also where the pre-pass rejects the notation.
  ArrayNotationResult Bad = rewriteArrayNotation("void f(float *a) { a[1:] = 0; }\n");
  EXPECT_FALSE(Bad.Diags.empty());
  EXPECT_EQ(Bad.NotationLine, 1u);
  EXPECT_EQ(Bad.NotationColumn, 21u);
}
