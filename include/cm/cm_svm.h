//===- cm/cm_svm.h - CM shared virtual memory (SVM) accesses --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SVM memory is addressed by plain 64-bit addresses (svmptr_t kernel
// arguments, or pointers) that the host and the kernel share: memory of
// CmDevice::CreateBufferSVM (cm_rt.h). Unlike surfaces, nothing is bounds
// checked: an address outside the buffer is the program's error, as on the
// hardware.
//
//   cm_svm_block_read(addr, v)    a block of 1, 2, 4 or 8 OWords (16 to 128
//   cm_svm_block_write(addr, v)   bytes); `addr` is aligned down to 16 bytes,
//                                 as the OWord block message ignores its low
//                                 bits
//   cm_svm_block_read_unaligned(addr, v)
//                                 the same read from a 4-byte aligned address
//   cm_svm_scatter_read(addrs, v) element i from addrs[i] (1, 2, 4 or 8-byte
//   cm_svm_scatter_write(addrs, v) elements; 1 to 32 addresses, a power of 2)
//   cm_svm_atomic(op, addrs, ret[, src0[, src1]])
//   svm_atomic<OP>(addrs, ret[, src0[, src1]])
//                                 atomic update of the 4-byte elements at
//                                 addrs; ret receives the old values
//   cm_ptr_block_read/_unaligned/_write(p, v), cm_ptr_scatter_read/write(p,
//   offsets, v), cm_ptr_atomic<OP>(p, offsets, ret, ...): the same from a
//   pointer (and byte offsets from it).
//
// Matrices work wherever vectors do (element order, row by row).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_SVM_H
#define SLMC_CM_SVM_H

#include "cm/cm_memory.h"

#include <stddef.h>
#include <stdint.h>

/// An SVM address as kernels receive it (CM's 64-bit pointer size).
typedef uint64_t svmptr_t;

namespace slmc {
namespace cm {
namespace detail {

/// The T at SVM address `a`: one access when `a` is a multiple of T's
/// size, else byte by byte.
template <class T> SLMC_CM_FN inline T svm_load(uint64_t a) {
  return raw_load<T, kGlobal>(reinterpret_cast<const void *>(uintptr_t(a & ~uint64_t(
                                  sizeof(T) - 1))),
                              uint32_t(a & (sizeof(T) - 1)));
}
template <class T> SLMC_CM_FN inline void svm_store(uint64_t a, T v) {
  raw_store<T, kGlobal>(reinterpret_cast<void *>(uintptr_t(a & ~uint64_t(sizeof(T) - 1))),
                        uint32_t(a & (sizeof(T) - 1)), v);
}

/// The shape rule of SVM block messages: 1, 2, 4 or 8 OWords.
template <class X> struct svm_block {
  static constexpr int bytes = size_of<X>::value * int(sizeof(element_t<X>));
  static_assert(bytes == 16 || bytes == 32 || bytes == 64 || bytes == 128,
                "an SVM block read or write moves 1, 2, 4 or 8 OWords "
                "(16, 32, 64 or 128 bytes)");
};

/// A block of SVM memory from `a` (aligned down to `align` bytes).
template <class D>
SLMC_CM_FN inline void svm_block_read(uint64_t a, uint64_t align, D &dst) {
  typedef element_t<D> T;
  constexpr int N = size_of<D>::value;
  (void)svm_block<D>::bytes;
  a &= ~(align - 1);
  T tmp[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    tmp[i] = svm_load<T>(a + uint64_t(i) * sizeof(T));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    dst.at(i) = tmp[i];
}

template <class X> SLMC_CM_FN inline void svm_block_write(uint64_t a, const X &src) {
  typedef element_t<X> T;
  constexpr int N = size_of<X>::value;
  (void)svm_block<X>::bytes;
  a &= ~uint64_t(15);
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    svm_store<T>(a + uint64_t(i) * sizeof(T), src.get(i));
}

/// The shape rule of SVM scattered messages.
template <class A, class X> struct svm_scatter {
  static constexpr int n = size_of<A>::value;
  static_assert(n == 1 || n == 2 || n == 4 || n == 8 || n == 16 || n == 32,
                "SVM scattered accesses take 1, 2, 4, 8, 16 or 32 addresses");
  static_assert(size_of<X>::value == n,
                "SVM scattered accesses: as many addresses as elements");
  static_assert(sizeof(element_t<X>) == 1 || sizeof(element_t<X>) == 2 ||
                    sizeof(element_t<X>) == 4 || sizeof(element_t<X>) == 8,
                "SVM scattered accesses move 1, 2, 4 or 8-byte elements");
};

/// Addresses: elements of an object of svmptr_t, or `base` plus byte
/// offsets (the pointer interface).
template <class A>
SLMC_CM_FN inline uint64_t svm_address(uint64_t base, const A &addrs, int i) {
  return base + uint64_t(int64_t(addrs.get(i)));
}

template <class A, class D>
SLMC_CM_FN inline void svm_gather(uint64_t base, const A &addrs, D &dst) {
  typedef element_t<D> T;
  constexpr int N = svm_scatter<A, D>::n;
  T tmp[N]; // every read before dst is written: dst may alias addrs
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    tmp[i] = svm_load<T>(svm_address(base, addrs, i));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    dst.at(i) = tmp[i];
}

template <class A, class X>
SLMC_CM_FN inline void svm_scatter_write(uint64_t base, const A &addrs, const X &src) {
  typedef element_t<X> T;
  constexpr int N = svm_scatter<A, X>::n;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    svm_store<T>(svm_address(base, addrs, i), src.get(i));
}

/// The operands each atomic operation takes, as Intel's compiler checks
/// them.
constexpr int svm_atomic_sources(int op) {
  return op == ATOMIC_INC || op == ATOMIC_DEC || op == ATOMIC_PREDEC ? 0
         : op == ATOMIC_CMPXCHG || op == ATOMIC_FCMPWR              ? 2
                                                                    : 1;
}

template <class A, class R, class S0, class S1>
SLMC_CM_FN inline void svm_atomic_elements(uint64_t base, int op, const A &addrs, R &ret,
                                           const S0 &src0, const S1 &src1) {
  typedef element_t<R> T;
  constexpr int N = svm_scatter<A, R>::n;
  static_assert(sizeof(T) == 4, "slmc: SVM atomics update 4-byte elements (int, uint "
                                "or float); 2- and 8-byte SVM atomics are not supported");
  T old[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    old[i] = atomic_update<__MEMORY_SCOPE_DEVICE, kGlobal, T>(
        reinterpret_cast<void *>(uintptr_t(svm_address(base, addrs, i))), op,
        T(elem(src0, i)), T(elem(src1, i)));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    ret.at(i) = old[i];
}

template <int Op, int Given> SLMC_CM_FN inline void svm_atomic_check() {
  static_assert(svm_atomic_sources(Op) == Given,
                "this SVM atomic operation takes another number of sources "
                "(INC, DEC and PREDEC none, CMPXCHG and FCMPWR two, the others one)");
}

template <class X>
using if_object = typename std::enable_if<is_object<X>>::type;

} // namespace detail
} // namespace cm
} // namespace slmc

// ---- svmptr_t interface ------------------------------------------------------

template <class D, class = ::slmc::cm::detail::if_object<D>>
SLMC_CM_FN inline void cm_svm_block_read(svmptr_t addr, D &&dst) {
  ::slmc::cm::detail::svm_block_read(addr, 16, dst);
}
template <class D, class = ::slmc::cm::detail::if_object<D>>
SLMC_CM_FN inline void cm_svm_block_read_unaligned(svmptr_t addr, D &&dst) {
  ::slmc::cm::detail::svm_block_read(addr, 4, dst);
}
template <class X, class = ::slmc::cm::detail::if_object<X>>
SLMC_CM_FN inline void cm_svm_block_write(svmptr_t addr, const X &src) {
  ::slmc::cm::detail::svm_block_write(addr, src);
}

template <class A, class D,
          class = typename std::enable_if<::slmc::cm::detail::is_object<A> &&
                                          ::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void cm_svm_scatter_read(const A &addrs, D &&dst) {
  ::slmc::cm::detail::svm_gather(0, addrs, dst);
}
template <class A, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<A> &&
                                          ::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void cm_svm_scatter_write(const A &addrs, const X &src) {
  ::slmc::cm::detail::svm_scatter_write(0, addrs, src);
}

/// The operation given at run time (the form Intel's samples use).
template <class A, class R, class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_svm_atomic(CmAtomicOpType op, const A &addrs, R &&ret) {
  ::slmc::cm::detail::svm_atomic_elements(0, int(op), addrs, ret, 0, 0);
}
template <class A, class R, class S0, class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_svm_atomic(CmAtomicOpType op, const A &addrs, R &&ret,
                                     const S0 &src0) {
  ::slmc::cm::detail::svm_atomic_elements(0, int(op), addrs, ret, src0, 0);
}
template <class A, class R, class S0, class S1,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_svm_atomic(CmAtomicOpType op, const A &addrs, R &&ret,
                                     const S0 &src0, const S1 &src1) {
  ::slmc::cm::detail::svm_atomic_elements(0, int(op), addrs, ret, src0, src1);
}

/// The operation as a template argument, its operands checked.
template <CmAtomicOpType Op, class A, class R, class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void svm_atomic(const A &addrs, R &&ret) {
  ::slmc::cm::detail::svm_atomic_check<Op, 0>();
  ::slmc::cm::detail::svm_atomic_elements(0, int(Op), addrs, ret, 0, 0);
}
template <CmAtomicOpType Op, class A, class R, class S0,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void svm_atomic(const A &addrs, R &&ret, const S0 &src0) {
  ::slmc::cm::detail::svm_atomic_check<Op, 1>();
  ::slmc::cm::detail::svm_atomic_elements(0, int(Op), addrs, ret, src0, 0);
}
template <CmAtomicOpType Op, class A, class R, class S0, class S1,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void svm_atomic(const A &addrs, R &&ret, const S0 &src0,
                                  const S1 &src1) {
  ::slmc::cm::detail::svm_atomic_check<Op, 2>();
  ::slmc::cm::detail::svm_atomic_elements(0, int(Op), addrs, ret, src0, src1);
}

// ---- Pointer interface: a pointer and byte offsets -----------------------------

template <class T, class D, class = ::slmc::cm::detail::if_object<D>>
SLMC_CM_FN inline void cm_ptr_block_read(const T *p, D &&dst) {
  ::slmc::cm::detail::svm_block_read(uint64_t(uintptr_t(p)), 16, dst);
}
template <class T, class D, class = ::slmc::cm::detail::if_object<D>>
SLMC_CM_FN inline void cm_ptr_block_read_unaligned(const T *p, D &&dst) {
  ::slmc::cm::detail::svm_block_read(uint64_t(uintptr_t(p)), 4, dst);
}
template <class T, class X, class = ::slmc::cm::detail::if_object<X>>
SLMC_CM_FN inline void cm_ptr_block_write(T *p, const X &src) {
  ::slmc::cm::detail::svm_block_write(uint64_t(uintptr_t(p)), src);
}
template <class T, class O, class D, class = ::slmc::cm::detail::if_object<D>>
SLMC_CM_FN inline void cm_ptr_scatter_read(const T *p, const O &offsets, D &&dst) {
  ::slmc::cm::detail::svm_gather(uint64_t(uintptr_t(p)), offsets, dst);
}
template <class T, class O, class X, class = ::slmc::cm::detail::if_object<X>>
SLMC_CM_FN inline void cm_ptr_scatter_write(T *p, const O &offsets, const X &src) {
  ::slmc::cm::detail::svm_scatter_write(uint64_t(uintptr_t(p)), offsets, src);
}
template <CmAtomicOpType Op, class T, class O, class R,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_ptr_atomic(T *p, const O &offsets, R &&ret) {
  ::slmc::cm::detail::svm_atomic_check<Op, 0>();
  ::slmc::cm::detail::svm_atomic_elements(uint64_t(uintptr_t(p)), int(Op), offsets, ret,
                                          0, 0);
}
template <CmAtomicOpType Op, class T, class O, class R, class S0,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_ptr_atomic(T *p, const O &offsets, R &&ret, const S0 &src0) {
  ::slmc::cm::detail::svm_atomic_check<Op, 1>();
  ::slmc::cm::detail::svm_atomic_elements(uint64_t(uintptr_t(p)), int(Op), offsets, ret,
                                          src0, 0);
}
template <CmAtomicOpType Op, class T, class O, class R, class S0, class S1,
          class = ::slmc::cm::detail::if_object<R>>
SLMC_CM_FN inline void cm_ptr_atomic(T *p, const O &offsets, R &&ret, const S0 &src0,
                                     const S1 &src1) {
  ::slmc::cm::detail::svm_atomic_check<Op, 2>();
  ::slmc::cm::detail::svm_atomic_elements(uint64_t(uintptr_t(p)), int(Op), offsets, ret,
                                          src0, src1);
}

#endif // SLMC_CM_SVM_H
