//===- sycl/detail/stream.hpp - sycl::stream ------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::stream (SYCL 2020 §4.16): output from kernels, the same on every
// backend and without printf, which SPIR-V limits to constant strings.
//
//   sycl::stream out(total, per_statement, cgh);    // in the command group
//   out << "item " << it.get_global_id() << ": " << x << sycl::endl;
//
// - The stream owns `total` bytes of device memory (a counter, then text)
//   that the handler allocates and, when the kernel has ended, copies back
//   and writes to stdout: a command group with a stream completes before
//   submit returns.
// - Each statement (one full expression of `<<`) is formatted in the
//   work-item's private memory, up to the per-statement size (at most
//   kStatementBytes), then appended in one atomic step, so statements of
//   different work-items never interleave. What does not fit is dropped.
// - Formatting as std::ostream's (width, precision, base, showbase,
//   showpos, fixed/scientific/hexfloat/defaultfloat). The flags last for the
//   statement: each statement starts from the defaults.
// - Floating-point values are expanded exactly (a float is never made a
//   double, which Intel GPUs before Xe-HPC lack) and rounded to nearest,
//   ties to even: the digits glibc's printf, and so std::ostream, prints.
//   The same code runs in every pass, so the CPU fallback's output is the
//   GPUs'. Precision is capped at 100.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_STREAM_HPP
#define SLMC_SYCL_DETAIL_STREAM_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/half.hpp"
#include "sycl/detail/handler.hpp"
#include "sycl/detail/item.hpp"
#include "sycl/detail/vec.hpp"

#include <cstdio>
#include <type_traits>

namespace sycl {

enum class stream_manipulator {
  flush,
  dec,
  hex,
  oct,
  noshowbase,
  showbase,
  noshowpos,
  showpos,
  endl,
  fixed,
  scientific,
  hexfloat,
  defaultfloat
};

inline constexpr stream_manipulator flush = stream_manipulator::flush;
inline constexpr stream_manipulator dec = stream_manipulator::dec;
inline constexpr stream_manipulator hex = stream_manipulator::hex;
inline constexpr stream_manipulator oct = stream_manipulator::oct;
inline constexpr stream_manipulator noshowbase = stream_manipulator::noshowbase;
inline constexpr stream_manipulator showbase = stream_manipulator::showbase;
inline constexpr stream_manipulator noshowpos = stream_manipulator::noshowpos;
inline constexpr stream_manipulator showpos = stream_manipulator::showpos;
inline constexpr stream_manipulator endl = stream_manipulator::endl;
inline constexpr stream_manipulator fixed = stream_manipulator::fixed;
inline constexpr stream_manipulator scientific = stream_manipulator::scientific;
inline constexpr stream_manipulator hexfloat = stream_manipulator::hexfloat;
inline constexpr stream_manipulator defaultfloat =
    stream_manipulator::defaultfloat;

namespace detail {

struct __precision_manipulator__ {
  int precision_;
  SLMC_HD int precision() const { return precision_; }
};
struct __width_manipulator__ {
  int width_;
  SLMC_HD int width() const { return width_; }
};

/// The private buffer of one statement: at most this many bytes reach the
/// stream at once (longer statements are cut, as the per-statement size
/// cuts them).
inline constexpr unsigned kStatementBytes = 512;

/// One statement being formatted: its text and the stream flags.
struct stream_statement_state {
  char text[kStatementBytes];
  unsigned length = 0;
  unsigned limit = kStatementBytes;
  int base = 10;
  bool showbase = false, showpos = false;
  stream_manipulator floats = stream_manipulator::defaultfloat;
  int precision = -1, width = 0;

  SLMC_HD void put(char c) {
    if (length < limit)
      text[length++] = c;
  }
  SLMC_HD void put(const char *s, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      put(s[i]);
  }
  /// `s` padded on the left to the pending width, which it consumes.
  SLMC_HD void field(const char *s, unsigned n) {
    for (int pad = width - int(n); pad > 0; --pad)
      put(' ');
    width = 0;
    put(s, n);
  }
};

// ---- Numbers to text ----

/// Digits of `v` in `base`, most significant first, into `out` (at least 64
/// bytes); returns the count.
SLMC_HD inline unsigned format_unsigned(unsigned long long v, int base,
                                        bool upper, char *out) {
  char rev[64];
  unsigned n = 0;
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    rev[n++] = digits[v % unsigned(base)];
    v /= unsigned(base);
  } while (v);
  for (unsigned i = 0; i < n; ++i)
    out[i] = rev[n - 1 - i];
  return n;
}

/// An unsigned integer of W 32-bit words (least significant first), for
/// exact decimal expansions of binary floating-point values.
template <int W> struct bignum {
  unsigned w[W];

  SLMC_HD void set(unsigned long long v) {
    for (int i = 0; i < W; ++i)
      w[i] = 0;
    w[0] = unsigned(v);
    w[1] = unsigned(v >> 32);
  }
  SLMC_HD bool zero() const {
    for (int i = 0; i < W; ++i)
      if (w[i])
        return false;
    return true;
  }
  /// Multiplies by 2^bits.
  SLMC_HD void shift_left(int bits) {
    int words = bits / 32, rest = bits % 32;
    for (int i = W - 1; i >= 0; --i) {
      unsigned long long v =
          i - words >= 0 ? (unsigned long long)w[i - words] << rest : 0;
      if (rest && i - words - 1 >= 0)
        v |= w[i - words - 1] >> (32 - rest);
      w[i] = unsigned(v);
    }
  }
  /// Divides by d, returning the remainder.
  SLMC_HD unsigned divide(unsigned d) {
    unsigned long long r = 0;
    for (int i = W - 1; i >= 0; --i) {
      unsigned long long v = r << 32 | w[i];
      w[i] = unsigned(v / d);
      r = v % d;
    }
    return unsigned(r);
  }
  SLMC_HD void multiply(unsigned f) {
    unsigned long long carry = 0;
    for (int i = 0; i < W; ++i) {
      unsigned long long v = (unsigned long long)w[i] * f + carry;
      w[i] = unsigned(v);
      carry = v >> 32;
    }
  }
  /// The bits from `bit` up, removed (bit < 32 * W).
  SLMC_HD unsigned take_above(int bit) {
    int word = bit / 32, rest = bit % 32;
    unsigned long long high = (unsigned long long)w[word] >> rest;
    if (word + 1 < W)
      high |= (unsigned long long)w[word + 1] << (32 - rest);
    w[word] &= rest ? (1u << rest) - 1 : 0u;
    for (int i = word + 1; i < W; ++i)
      w[i] = 0;
    return unsigned(high);
  }
};

/// The exact decimal expansion of m * 2^e (m < 2^53): its integer digits,
/// then fraction digits one at a time. W holds the larger of both parts:
/// 6 words for float, 36 for double.
template <int W> struct exact_decimal {
  char integer[320]; // most significant first; "0" for none
  unsigned integer_length = 0;
  bignum<W> fraction; // numerator over 2^scale
  int scale = 0;

  SLMC_HD exact_decimal(unsigned long long m, int e) {
    bignum<W> whole;
    whole.set(m);
    if (e >= 0) {
      whole.shift_left(e);
      fraction.set(0);
    } else {
      scale = -e;
      fraction = whole;
      whole.set(scale >= 64 ? 0 : m >> scale);
      if (scale < 64)
        fraction.take_above(scale);
    }
    // Groups of nine digits, least significant first.
    char reversed[320];
    unsigned n = 0;
    while (!whole.zero() && n + 9 <= sizeof reversed) {
      unsigned group = whole.divide(1000000000u);
      for (int i = 0; i < 9; ++i, group /= 10)
        reversed[n++] = char('0' + group % 10);
    }
    while (n > 1 && reversed[n - 1] == '0')
      --n;
    if (n == 0)
      reversed[n++] = '0';
    for (unsigned i = 0; i < n; ++i)
      integer[i] = reversed[n - 1 - i];
    integer_length = n;
  }
  SLMC_HD char next_fraction_digit() {
    if (scale == 0)
      return '0';
    fraction.multiply(10);
    return char('0' + fraction.take_above(scale));
  }
  SLMC_HD bool fraction_left() const { return scale != 0 && !fraction.zero(); }
};

/// Rounds the digits d[0..n) to nearest, ties to even, given the next digit
/// and whether anything non-zero follows it. True when the carry left the
/// first digit (d is then "1000...": the caller adds the new digit).
SLMC_HD inline bool round_digits(char *d, unsigned n, char next, bool sticky) {
  bool up =
      next > '5' || (next == '5' && (sticky || (n && (d[n - 1] - '0') % 2)));
  if (!up)
    return false;
  for (int i = int(n) - 1; i >= 0; --i) {
    if (d[i] != '9') {
      ++d[i];
      return false;
    }
    d[i] = '0';
  }
  return true;
}

SLMC_HD inline unsigned put_exponent(char *out, int x) {
  unsigned n = 0;
  out[n++] = 'e';
  out[n++] = x < 0 ? '-' : '+';
  char digits[8];
  unsigned nd = format_unsigned(unsigned(x < 0 ? -x : x), 10, false, digits);
  if (nd < 2)
    out[n++] = '0';
  for (unsigned i = 0; i < nd; ++i)
    out[n++] = digits[i];
  return n;
}

/// m * 2^e >= 0 in printf's %e, %f or %g style, digit for digit what glibc
/// prints (rounded exactly, ties to even). `out` holds at least 480 bytes;
/// the precision is at most 100.
template <int W>
SLMC_HD unsigned format_decimal(unsigned long long m, int e, char style,
                                int precision, char *out) {
  exact_decimal<W> x(m, e);
  unsigned n = 0;
  if (style == 'f') {
    char d[440];
    unsigned nd = 0;
    for (unsigned i = 0; i < x.integer_length; ++i)
      d[nd++] = x.integer[i];
    for (int i = 0; i < precision; ++i)
      d[nd++] = x.next_fraction_digit();
    char next = x.next_fraction_digit();
    bool carry = round_digits(d, nd, next, x.fraction_left());
    if (carry)
      out[n++] = '1';
    for (unsigned i = 0; i < nd; ++i) {
      if (i == x.integer_length)
        out[n++] = '.';
      out[n++] = d[i];
    }
    return n;
  }
  // The significant digits: the first non-zero one and those after it.
  bool is_zero = m == 0;
  int exponent = 0;  // of the first significant digit
  unsigned from = 0; // where they start in the integer digits
  if (!is_zero && !(x.integer_length == 1 && x.integer[0] == '0')) {
    exponent = int(x.integer_length) - 1;
  } else if (!is_zero) {
    from = x.integer_length; // none in the integer part
    exponent = -1;
    char c;
    while ((c = x.next_fraction_digit()) == '0')
      --exponent;
    x.integer[0] = c; // the first significant digit, kept in front
    from = 0;
    x.integer_length = 1;
  }
  int p = style == 'g' ? (precision == 0 ? 1 : precision) : precision + 1;
  char d[120];
  unsigned nd = 0;
  for (unsigned i = from; i < x.integer_length && nd < unsigned(p); ++i)
    d[nd++] = x.integer[i];
  unsigned used = from + nd;
  while (nd < unsigned(p))
    d[nd++] = is_zero ? '0' : x.next_fraction_digit();
  char next;
  bool sticky = false;
  if (used < x.integer_length) {
    next = x.integer[used];
    for (unsigned i = used + 1; i < x.integer_length; ++i)
      sticky = sticky || x.integer[i] != '0';
    sticky = sticky || x.fraction_left();
  } else {
    next = is_zero ? '0' : x.next_fraction_digit();
    sticky = x.fraction_left();
  }
  if (round_digits(d, nd, next, sticky)) {
    d[0] = '1';
    ++exponent;
  }
  if (style == 'g' && exponent >= -4 && exponent < p) {
    // %f with p - 1 - exponent decimals: the same digits.
    unsigned keep = nd;
    int decimals = p - 1 - exponent;
    while (decimals > 0 && keep > 0 && d[keep - 1] == '0' &&
           int(keep) > exponent + 1)
      --keep, --decimals;
    if (exponent < 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = -1; i > exponent; --i)
        out[n++] = '0';
      for (unsigned i = 0; i < keep; ++i)
        out[n++] = d[i];
    } else {
      for (unsigned i = 0; i < keep; ++i) {
        if (int(i) == exponent + 1)
          out[n++] = '.';
        out[n++] = d[i];
      }
    }
    return n;
  }
  unsigned keep = nd;
  if (style == 'g')
    while (keep > 1 && d[keep - 1] == '0')
      --keep;
  out[n++] = d[0];
  if (keep > 1)
    out[n++] = '.';
  for (unsigned i = 1; i < keep; ++i)
    out[n++] = d[i];
  return n + put_exponent(out + n, exponent);
}

/// %a of a double given as its fraction bits and unbiased exponent
/// (`normal`: with the implicit 1), as glibc prints it: 0x1.8p+0.
SLMC_HD inline unsigned format_hexfloat(unsigned long long fraction,
                                        int exponent, bool normal, char *out) {
  unsigned n = 0;
  out[n++] = '0';
  out[n++] = 'x';
  out[n++] = normal ? '1' : '0';
  if (fraction) {
    out[n++] = '.';
    for (int shift = 48; shift >= 0 && fraction; shift -= 4) {
      out[n++] = "0123456789abcdef"[(fraction >> shift) & 0xf];
      fraction &= (1ull << shift) - 1;
    }
  }
  out[n++] = 'p';
  out[n++] = exponent < 0 ? '-' : '+';
  char digits[8];
  unsigned nd = format_unsigned(unsigned(exponent < 0 ? -exponent : exponent),
                                10, false, digits);
  for (unsigned i = 0; i < nd; ++i)
    out[n++] = digits[i];
  return n;
}

SLMC_HD inline void write_integer(stream_statement_state &s,
                                  unsigned long long magnitude, bool negative) {
  char text[72];
  unsigned n = 0;
  if (negative)
    text[n++] = '-';
  else if (s.showpos && s.base == 10)
    text[n++] = '+';
  if (s.showbase && s.base == 16) {
    text[n++] = '0';
    text[n++] = 'x';
  } else if (s.showbase && s.base == 8 && magnitude != 0) {
    text[n++] = '0';
  }
  n += format_unsigned(magnitude, s.base, false, text + n);
  s.field(text, n);
}

/// A float or double, without converting a float to double (Intel GPUs
/// before Xe-HPC have no doubles).
template <typename T>
SLMC_HD void write_floating(stream_statement_state &s, T v) {
  constexpr bool is_double = sizeof(T) == 8;
  constexpr int mantissa_bits = is_double ? 52 : 23,
                bias = is_double ? 1023 : 127;
  using Bits = std::conditional_t<is_double, unsigned long long, unsigned>;
  Bits bits = __builtin_bit_cast(Bits, v);
  bool negative = bits >> (sizeof(T) * 8 - 1);
  int biased = int((bits >> mantissa_bits) & (is_double ? 0x7ff : 0xff));
  unsigned long long fraction = bits & ((Bits(1) << mantissa_bits) - 1);
  char text[480];
  unsigned n = 0;
  if (negative)
    text[n++] = '-';
  else if (s.showpos)
    text[n++] = '+';
  if (biased == (is_double ? 0x7ff : 0xff)) {
    const char *word = fraction ? "nan" : "inf";
    for (int i = 0; i < 3; ++i)
      text[n++] = word[i];
    s.field(text, n);
    return;
  }
  // v = m * 2^e exactly.
  unsigned long long m = biased ? fraction | 1ull << mantissa_bits : fraction;
  int e = (biased ? biased : 1) - bias - mantissa_bits;
  int precision = s.precision < 0 ? 6 : s.precision > 100 ? 100 : s.precision;
  if (s.floats == stream_manipulator::hexfloat) {
    // As a double, which is what std::ostream prints a float as.
    unsigned long long f52 = fraction << (52 - mantissa_bits);
    int exponent = biased ? biased - bias : 1 - bias;
    bool normal = biased != 0;
    if (!is_double && !normal &&
        fraction) { // a float subnormal is a normal double
      while (!(f52 >> 52))
        f52 <<= 1, --exponent;
      f52 &= (1ull << 52) - 1;
      normal = true;
    }
    if (!normal && !fraction)
      exponent = 0;
    n += format_hexfloat(f52, exponent, normal, text + n);
  } else {
    char style = s.floats == stream_manipulator::fixed        ? 'f'
                 : s.floats == stream_manipulator::scientific ? 'e'
                                                              : 'g';
    n += format_decimal < is_double ? 36
                                    : 6 > (m, e, style, precision, text + n);
  }
  s.field(text, n);
}

/// Appends a statement's text to the stream's device memory in one step.
SLMC_HD inline void append(stream_memory *memory, unsigned capacity,
                           const char *text, unsigned length) {
  if (!memory || length == 0)
    return;
  // A full stream takes nothing more, so the count stays far from wrapping
  // (it passes the capacity by at most one statement per work-item).
  unsigned used;
  __scoped_atomic_load(&memory->used, &used, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (used >= capacity)
    return;
  unsigned at = __scoped_atomic_fetch_add(
      &memory->used, length, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (at >= capacity)
    return;
  unsigned n = capacity - at < length ? capacity - at : length;
  for (unsigned i = 0; i < n; ++i)
    memory->text[at + i] = text[i];
}

template <typename T> struct is_stream_integer {
  static constexpr bool value =
      std::is_integral<T>::value && !std::is_same<T, bool>::value &&
      !std::is_same<T, char>::value && !std::is_same<T, signed char>::value &&
      !std::is_same<T, unsigned char>::value;
};

/// Ids, ranges and vectors are written as lists of `length` elements.
template <typename T> struct is_stream_list : std::false_type {};
template <int N> struct is_stream_list<id<N>> : std::true_type {
  static constexpr int length = N;
};
template <int N> struct is_stream_list<range<N>> : std::true_type {
  static constexpr int length = N;
};
template <typename T, int N> struct is_stream_list<vec<T, N>> : std::true_type {
  static constexpr int length = N;
};

/// What a stream writes (SYCL 2020 §4.16.3): anything else is left to the
/// user's own operator<< taking `const sycl::stream &`.
template <typename T, typename U = typename std::remove_cv<T>::type>
inline constexpr bool is_streamable =
    std::is_arithmetic<U>::value || std::is_same<U, half>::value ||
    std::is_same<U, stream_manipulator>::value ||
    std::is_same<U, __precision_manipulator__>::value ||
    std::is_same<U, __width_manipulator__>::value ||
    std::is_pointer<U>::value || std::is_null_pointer<U>::value ||
    (std::is_array<U>::value &&
     std::is_same<typename std::remove_cv<std::remove_extent_t<U>>::type,
                  char>::value) ||
    is_stream_list<U>::value;

class stream_statement;

} // namespace detail

SLMC_HD inline detail::__precision_manipulator__ setprecision(int precision) {
  return {precision};
}
SLMC_HD inline detail::__width_manipulator__ setw(int width) { return {width}; }

/// SYCL 2020 §4.16.1. Captured by value in kernels; trivially copyable.
class stream {
public:
  stream(size_t totalBufferSize, size_t workItemBufferSize, handler &cgh,
         const property_list & = {})
      : memory_(detail::add_stream(cgh, capped(totalBufferSize))),
        size_(unsigned(capped(totalBufferSize))),
        statement_size_(unsigned(capped(workItemBufferSize))) {}

  SLMC_HD size_t size() const noexcept { return size_; }
  SLMC_HD size_t get_size() const { return size_; }
  SLMC_HD size_t get_work_item_buffer_size() const { return statement_size_; }
  SLMC_HD size_t get_max_statement_size() const { return statement_size_; }
  friend SLMC_HD bool operator==(const stream &a, const stream &b) {
    return a.memory_ == b.memory_;
  }
  friend SLMC_HD bool operator!=(const stream &a, const stream &b) {
    return !(a == b);
  }

protected:
  /// Sizes are kept in 32 bits: at most 2 GiB of text.
  static size_t capped(size_t bytes) { return bytes < 0x7fffffffu ? bytes : 0x7fffffffu; }

  SLMC_HD stream(const stream &s, detail::stream_statement_state *statement)
      : memory_(s.memory_), size_(s.size_), statement_size_(s.statement_size_),
        statement_(statement) {}

private:
  friend class detail::stream_statement;
  detail::stream_memory *memory_ = nullptr;
  unsigned size_ = 0, statement_size_ = 0;
  /// In a statement (the stream its first `<<` returned, and what user
  /// overloads taking `const stream &` receive from it): where it writes.
  detail::stream_statement_state *statement_ = nullptr;
};

namespace detail {

/// What `out << x` returns: a stream that formats into a statement and, at
/// the end of the full expression, appends it. Copies made of it (a user
/// overload's `return os;`) share its text and leave the appending to it.
class stream_statement : public stream {
public:
  SLMC_HD explicit stream_statement(const stream &s)
      : stream(s, s.statement_ ? s.statement_ : &own_), owner_(!s.statement_) {
    if (owner_ && statement_size_ && statement_size_ < kStatementBytes)
      own_.limit = statement_size_;
  }
  /// The statement with `v` written: returned as a prvalue, so it is made
  /// in place and never copied (its state points into itself).
  template <typename T> SLMC_HD stream_statement(const stream &s, const T &v);
  stream_statement(const stream_statement &) = delete;
  stream_statement &operator=(const stream_statement &) = delete;
  SLMC_HD ~stream_statement() {
    if (owner_)
      flush();
  }
  SLMC_HD stream_statement_state &state() const { return *statement_; }
  SLMC_HD void flush() const {
    append(memory_, size_, statement_->text, statement_->length);
    statement_->length = 0;
  }

private:
  stream_statement_state own_;
  bool owner_;
};

template <typename A>
SLMC_HD void write_list(stream_statement &s, const A &a, int n);

template <typename T> SLMC_HD void write(stream_statement &s, const T &v) {
  static_assert(is_streamable<T>, "sycl::stream: no operator<< for this type");
  stream_statement_state &st = s.state();
  using U = typename std::remove_cv<T>::type;
  if constexpr (std::is_same<U, stream_manipulator>::value) {
    switch (v) {
    case stream_manipulator::endl:
      st.put('\n');
      s.flush();
      break;
    case stream_manipulator::flush:
      s.flush();
      break;
    case stream_manipulator::dec:
      st.base = 10;
      break;
    case stream_manipulator::hex:
      st.base = 16;
      break;
    case stream_manipulator::oct:
      st.base = 8;
      break;
    case stream_manipulator::showbase:
      st.showbase = true;
      break;
    case stream_manipulator::noshowbase:
      st.showbase = false;
      break;
    case stream_manipulator::showpos:
      st.showpos = true;
      break;
    case stream_manipulator::noshowpos:
      st.showpos = false;
      break;
    default:
      st.floats = v;
      break;
    }
  } else if constexpr (std::is_same<U, __precision_manipulator__>::value) {
    st.precision = v.precision();
  } else if constexpr (std::is_same<U, __width_manipulator__>::value) {
    st.width = v.width();
  } else if constexpr (std::is_same<U, bool>::value) {
    st.field(v ? "1" : "0", 1);
  } else if constexpr (std::is_same<U, char>::value ||
                       std::is_same<U, signed char>::value ||
                       std::is_same<U, unsigned char>::value) {
    char c = char(v);
    st.field(&c, 1);
  } else if constexpr (is_stream_integer<U>::value) {
    if constexpr (std::is_signed<U>::value) {
      bool negative = v < 0 && st.base == 10;
      unsigned long long m =
          negative ? 0ull - (unsigned long long)(long long)v
                   : (unsigned long long)(std::make_unsigned_t<U>)v;
      write_integer(st, m, negative);
    } else {
      write_integer(st, (unsigned long long)v, false);
    }
  } else if constexpr (std::is_same<U, float>::value ||
                       std::is_same<U, double>::value ||
                       std::is_same<U, half>::value) {
    if constexpr (std::is_same<U, half>::value)
      write_floating(st, float(v));
    else
      write_floating(st, v);
  } else if constexpr (std::is_pointer<U>::value &&
                       std::is_same<typename std::remove_cv<
                                        std::remove_pointer_t<U>>::type,
                                    char>::value) {
    unsigned n = 0;
    while (v && v[n])
      ++n;
    st.field(v, n);
  } else if constexpr (std::is_pointer<U>::value ||
                       std::is_null_pointer<U>::value) {
    int base = st.base;
    bool showbase = st.showbase;
    st.base = 16, st.showbase = true;
    write_integer(st, (unsigned long long)(uintptr_t)v, false);
    st.base = base, st.showbase = showbase;
  } else if constexpr (std::is_array<U>::value &&
                       std::is_same<typename std::remove_cv<
                                        std::remove_extent_t<U>>::type,
                                    char>::value) {
    write(s, static_cast<const char *>(v));
  } else {
    write_list(s, v, is_stream_list<U>::length);
  }
}

/// {a, b, c}: ids, ranges and vectors, as DPC++ writes them.
template <typename A>
SLMC_HD void write_list(stream_statement &s, const A &a, int n) {
  s.state().put('{');
  for (int i = 0; i < n; ++i) {
    if (i)
      s.state().put(", ", 2);
    write(s, a[i]);
  }
  s.state().put('}');
}

template <typename T>
SLMC_HD stream_statement::stream_statement(const stream &s, const T &v)
    : stream_statement(s) {
  write(*this, v);
}

} // namespace detail

/// The first `<<` of a statement makes the statement (a temporary that
/// appends its text at the end of the full expression); the later ones,
/// on the statement, write into it. In a user's operator<< that receives
/// the statement as `const stream &`, the first kind writes into it too.
/// What the later ones return lives until the end of the full expression:
/// lifetimebound makes Clang warn where a user's operator<< returns it
/// (`return os << x;`) instead of `os`.
template <typename T, typename = std::enable_if_t<detail::is_streamable<T>>>
SLMC_HD detail::stream_statement operator<<(const stream &os, const T &v) {
  return detail::stream_statement(os, v);
}
template <typename T, typename = std::enable_if_t<detail::is_streamable<T>>>
SLMC_HD const detail::stream_statement &
operator<<(const detail::stream_statement &os [[clang::lifetimebound]], const T &v) {
  detail::write(const_cast<detail::stream_statement &>(os), v);
  return os;
}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_STREAM_HPP
