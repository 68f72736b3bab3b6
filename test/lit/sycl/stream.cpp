// sycl::stream (SYCL 2020 §4.16): every type the specification lists
// (integers of each width and sign, char, bool, strings, pointers, float,
// double, id, range, vec) with each manipulator (hex, oct, dec, showbase,
// showpos, setw, setprecision, fixed, scientific, hexfloat, defaultfloat,
// endl, flush) and a user's operator<< for their own type, written by 24
// work-items in 3 groups. The text must equal std::ostream's for the same
// values, line for line (the lines of different items in any order):
// floating-point values are expanded exactly, in float for floats. Then the
// limits: a statement
// longer than the per-statement size is cut, a full stream drops what does
// not fit, a statement without endl is still written, two streams in one
// command group. The SPIR-V validates and the PTX builds at -O2 (a kernel
// lambda too large to inline, whose by-value nd_item the NVPTX backend once
// aborted on).
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t > %t.out 2> %t.expected
// RUN: sort %t.out > %t.out.sorted
// RUN: sort %t.expected | diff %t.out.sorted -
// RUN: %t limits | FileCheck %s --check-prefix=LIMITS
// LIMITS:      0123456789abcdefabcd
// LIMITS-NEXT: {{^}}item item {{$}}
// LIMITS-NEXT: no newline, then the next statement
// LIMITS-NEXT: first stream
// LIMITS-NEXT: second stream
// LIMITS-NEXT: limits done
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx -O2 --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .entry
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// A user's operator<< that returns the statement instead of the stream is
// warned about (what it returns lives until the end of its full expression):
// RUN: %slmcxx -fsyntax-only -DRETURN_CHAIN %s 2>&1 | FileCheck %s --check-prefix=DANGLING
// DANGLING: stream.cpp:[[# @LINE + 24]]:10: warning: returning reference to local temporary object

#include <climits>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <sycl/sycl.hpp>

struct point {
  int x, y;
};
// A user's own operator<<, the way SYCL code writes one for its types.
const sycl::stream &operator<<(const sycl::stream &os, const point &p) {
  os << "(" << p.x << ", " << p.y << ")";
  return os;
}
#ifdef RETURN_CHAIN
struct pair2 {
  int a, b;
};
const sycl::stream &operator<<(const sycl::stream &os, const pair2 &p) {
  return os << p.a << "," << p.b;
}
#endif
std::ostream &operator<<(std::ostream &os, const point &p) {
  return os << "(" << p.x << ", " << p.y << ")";
}

constexpr int N = 24;
static const double kDoubles[N] = {
    0.0,         -0.0,
    1.5,         0.1,
    1e-5,        123456789.0,
    1e20,        3.14159265358979,
    -2.5e-7,     999999.5,
    0.000123456, 1e300,
    5e-324,      65504.0,
    2.0 / 3.0,   1e6,
    1e-4,        0.125,
    2.5,         HUGE_VAL,
    1234.5678,   -1e-300,
    9.999999e9,  -std::numeric_limits<double>::quiet_NaN()};

// Every item prints one line of integers and one of floating-point values.
template <typename Out>
void line_ints(const Out &os, int i, long long v, unsigned u) {
  os << "i" << i << " " << int(v) << " " << v << " " << u << " " << sycl::hex
     << u << " " << sycl::showbase << v << " " << sycl::oct << u << " "
     << sycl::dec << sycl::showpos << int(v) << " " << sycl::noshowpos
     << sycl::setw(8) << i << "|" << char('a' + i) << " " << (i % 2 == 0) << " "
     << point{i, -i} << sycl::endl;
}
template <typename Out> void line_floats(const Out &os, int i, double d) {
  float f = float(d);
  os << "f" << i << " " << d << " " << f << " " << sycl::setprecision(10) << d
     << " " << sycl::fixed << sycl::setprecision(2) << d << " "
     << sycl::scientific << sycl::setprecision(3) << d << " " << sycl::hexfloat
     << f << " " << sycl::defaultfloat << sycl::setprecision(6)
     << sycl::setw(12) << f << sycl::endl;
}

// The host's twin, with std::ostream.
namespace host {
struct stream {
  std::ostringstream &os;
};
struct manip {
  int kind, n;
};
} // namespace host

static int limits(sycl::queue &q) {
  // Statements cut at 16 bytes; flush writes what came before it.
  q.submit([&](sycl::handler &cgh) {
    sycl::stream s(64, 16, cgh);
    cgh.single_task([=] {
      s << "0123456789abcdefghij" << sycl::endl;
      s << "ab" << sycl::flush << "cd" << sycl::endl;
    });
  });
  // 10 bytes hold two of the eight items' statements.
  q.submit([&](sycl::handler &cgh) {
    sycl::stream s(10, 64, cgh);
    cgh.parallel_for(sycl::range<1>(8), [=](sycl::id<1>) { s << "item "; });
  });
  std::printf("\n");
  std::fflush(stdout);
  q.submit([&](sycl::handler &cgh) {
    sycl::stream a(128, 64, cgh), b(128, 64, cgh);
    cgh.single_task([=] {
      a << "no newline";
      a << ", then the next statement\n";
      a << "first stream" << sycl::endl;
      b << "second stream" << sycl::endl;
    });
  });
  q.wait();
  std::printf("limits done\n");
  return 0;
}

int main(int argc, char **argv) {
  sycl::queue q;
  if (argc > 1)
    return limits(q);
  long long *ints = sycl::malloc_shared<long long>(N, q);
  double *doubles = sycl::malloc_shared<double>(N, q);
  for (int i = 0; i < N; ++i) {
    ints[i] = (i % 3 == 0 ? -1 : 1) * (1ll << (i * 2 + 1)) + i;
    doubles[i] = kDoubles[i];
  }
  ints[N - 1] = LLONG_MIN;
  ints[N - 2] = LLONG_MAX;
  q.submit([&](sycl::handler &cgh) {
    sycl::stream out(1 << 16, 512, cgh);
    cgh.parallel_for(sycl::nd_range<1>(N, 8), [=](sycl::nd_item<1> it) {
      int i = int(it.get_global_id(0));
      line_ints(out, i, ints[i], unsigned(ints[i]));
      line_floats(out, i, doubles[i]);
      if (i == 0)
        out << "ids " << it.get_global_id() << " " << it.get_local_range()
            << " " << sycl::range<3>(1, 2, 3) << " "
            << sycl::float2(0.5f, -2.0f) << sycl::endl;
    });
  });
  q.wait();
  std::fflush(stdout);
  // The same lines from std::ostream, on stderr.
  for (int i = 0; i < N; ++i) {
    std::ostringstream a;
    long long v = ints[i];
    unsigned u = unsigned(v);
    a << "i" << i << " " << int(v) << " " << v << " " << u << " " << std::hex
      << u << " " << std::showbase << v << " " << std::oct << u << " "
      << std::dec << std::showpos << int(v) << " " << std::noshowpos
      << std::setw(8) << i << "|" << char('a' + i) << " " << (i % 2 == 0) << " "
      << point{i, -i} << "\n";
    double d = doubles[i];
    float f = float(d);
    a << "f" << i << " " << d << " " << f << " " << std::setprecision(10) << d
      << " " << std::fixed << std::setprecision(2) << d << " "
      << std::scientific << std::setprecision(3) << d << " " << std::hexfloat
      << f << " " << std::defaultfloat << std::setprecision(6) << std::setw(12)
      << f << "\n";
    std::cerr << a.str();
  }
  std::cerr << "ids {0} {8} {1, 2, 3} {0.5, -2}\n";
  sycl::free(ints, q);
  sycl::free(doubles, q);
}
