// A tour of the C for Metal kernel language as slmc implements it: the
// kernel. One thread group of GROUP threads; thread 0 runs the
// single-thread checks, every thread takes part in the SLM and atomic ones.
// Each check writes 16 uint "slots" of `out`, which the host program
// (language.cpp) compares with values it computes itself.
//
// Build: slmc++ --emit=program language_genx.cpp -o language_genx.isa
#include <cm/cm.h>

#define GROUP 16
#define SLOT 16 // uints per check

const uint sequence[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

_GENX_ void put(SurfaceIndex out, int check, vector<uint, SLOT> v) {
  write(out, check * SLOT * sizeof(uint), v);
}

_GENX_ void single_thread_checks(SurfaceIndex out, SurfaceIndex in, int n) {
  vector<uint, 16> seq(sequence);

  // 0: select with a stride, written through the reference.
  vector<uint, 16> v = seq;
  v.select<4, 4>(1) = 100;
  put(out, 0, v);

  // 1: format: the bits of floats, then bytes of a uint.
  vector<float, 4> f;
  f(0) = 1.0f, f(1) = -2.0f, f(2) = 0.5f, f(3) = 3.0f;
  vector<uint, 16> r = 0;
  r.select<4, 1>(0) = f.format<uint>();
  vector<uint, 1> word = 0x04030201u;
  r.select<4, 1>(4) = word.format<uchar>();
  put(out, 1, r);

  // 2: replicate: 2 blocks of 4, 8 apart, elements 2 apart.
  put(out, 2, seq.replicate<2, 8, 4, 2>(1).replicate<2>());

  // 3: merge under a comparison mask, and iselect.
  vector<uint, 16> m = seq;
  m.merge(seq * 10, seq > 7);
  vector<uint, 16> rev = 15 - seq;
  r = m.iselect(rev);
  put(out, 3, r);

  // 4: matrix rows, columns and a 2x2 select; m[r][c].
  matrix<uint, 4, 4> mat = seq;
  matrix<uint, 4, 4> t;
  for (int i = 0; i < 4; ++i)
    t.row(i) = mat.column(i);
  t.select<2, 2, 2, 2>(0, 0) += 1000;
  t[3][3] = 7;
  put(out, 4, t);

  // 5: reductions and dot products.
  vector<int, 8> a = seq.select<8, 1>(0);
  vector<int, 8> b = seq.select<8, 2>(1) - 8;
  r = 0;
  r(0) = cm_sum<int>(a);
  r(1) = cm_prod<int>(a.select<4, 1>(1));
  r(2) = cm_reduced_max<int>(b);
  r(3) = uint(cm_reduced_min<int>(b));
  r.select<8, 1>(4) = cm_dp4<int>(a, b);
  r.select<4, 1>(12) = cm_max<int>(a.select<4, 2>(0), b.select<4, 2>(0));
  put(out, 5, r);

  // 6: saturation and absolute values.
  vector<int, 8> big = a * 60 - 100;
  r = 0;
  r.select<8, 1>(0) = cm_add<uchar>(big, 0, SAT);
  r.select<8, 1>(8) = cm_abs<int>(big);
  put(out, 6, r);

  // 7: math, scaled to integers.
  vector<float, 8> x = 0.0f;
  x(0) = 4.0f, x(1) = 16.0f, x(2) = 3.0f, x(3) = 8.0f, x(4) = 2.0f, x(5) = 0.0f;
  r = 0;
  r(0) = uint(cm_sqrt(x(0)) * 1000.0f + 0.5f);
  r(1) = uint(cm_rsqrt(x(1)) * 1000.0f + 0.5f);
  r(2) = uint(cm_exp(x(2)) * 1000.0f + 0.5f);
  r(3) = uint(cm_log(x(3)) * 1000.0f + 0.5f);
  r(4) = uint(cm_pow(x(4), 10.0f) + 0.5f);
  r(5) = uint(cm_inv(x(0)) * 1000.0f + 0.5f);
  r(6) = uint(cm_cos(x(5)) * 1000.0f + 0.5f);
  r(7) = uint(cm_sin(x(5)) * 1000.0f + 0.5f);
  vector<float, 8> roots = cm_sqrt(x * x);
  r.select<8, 1>(8) = roots + 0.5f;
  put(out, 7, r);

  // 8: block reads past the end of `in` (n uints) give zeros.
  vector<uint, 16> tail;
  read(in, (n - 8) * 4, tail);
  put(out, 8, tail);

  // 9: scattered reads and writes with element offsets; a scalar write.
  vector<uint, 8> gathered;
  read(in, 2u, seq.select<8, 2>(0), gathered);
  r = 0;
  r.select<8, 1>(0) = gathered;
  put(out, 9, r);
  write(out, uint(9 * SLOT + 8), seq.select<8, 1>(0), gathered + 1);
  write(out, uint(9 * SLOT + 15), uint(4242));

  // 11: a DWALIGNED read at a 4-byte offset (the atomics below fill the
  // second half of this slot).
  vector<uint, 4> dw;
  read(DWALIGNED(in), 4, dw);
  vector<uint, 4> head = dw;
  write(out, (11 * SLOT) * sizeof(uint), head);

  // 15: a block write half past the end of `out` keeps its first half
  // (`out` ends 8 uints into slot 15; see language.cpp).
  vector<uint, 16> edge = seq + 500;
  write(out, (15 * SLOT) * sizeof(uint), edge);
}

// 12: channel-wise SLM access: write R and G of 8 four-element groups,
// read back G and A (A never written, so 0).
_GENX_ void channel_checks(SurfaceIndex out, uint slm) {
  vector<uint, 32> zeros = 0;
  cm_slm_block_write(slm, 0, zeros);
  vector<uint, 8> addr;
  for (int i = 0; i < 8; ++i)
    addr(i) = 4 * i;
  vector<uint, 16> rg;
  for (int i = 0; i < 8; ++i)
    rg(i) = 100 + i, rg(8 + i) = 200 + i;
  cm_slm_write4(slm, addr, rg, SLM_GR_ENABLE);
  vector<uint, 16> ga;
  cm_slm_read4(slm, addr, ga, SLM_AG_ENABLE);
  write(out, (12 * SLOT) * sizeof(uint), ga);
}

extern "C" _GENX_MAIN_ void language(SurfaceIndex out, SurfaceIndex in, int n) {
  cm_slm_init(2048);
  uint first = cm_slm_alloc(GROUP * 8 * sizeof(uint));
  uint second = cm_slm_alloc(256);
  const uint me = cm_linear_local_id();

  if (me == 0) {
    single_thread_checks(out, in, n);
    channel_checks(out, second + 64);
  }

  // 13: every thread writes 8 values to SLM; after a barrier each sums its
  // neighbour's.
  vector<uint, 8> lane(sequence);
  cm_slm_write(first, lane + me * 8, lane + me * 100);
  cm_barrier();
  vector<uint, 8> theirs;
  cm_slm_read(first, lane + (me + 1) % GROUP * 8, theirs);
  write(out, uint(13 * SLOT) + me, cm_sum<uint>(theirs));

  // 11 (second half): SLM atomics from every thread on 4 counters, 8 lanes
  // each: INC, ADD, MAX and a float FADD.
  if (me == 0) {
    vector<uint, 4> zeros = 0;
    cm_slm_block_write(second, 0, zeros);
  }
  cm_barrier();
  vector<ushort, 8> counter0 = 0, counter1 = 1, counter2 = 2;
  vector<uint, 8> old;
  vector<uint, 8> ones = 1;
  cm_slm_atomic(second, ATOMIC_INC, counter0, 0);
  cm_slm_atomic(second, ATOMIC_ADD, counter1, old, ones * (me + 1));
  cm_slm_atomic(second, ATOMIC_MAX, counter2, 0, ones * (me * 3));
  vector<ushort, 8> counter3 = 3;
  vector<float, 8> quarter = 0.25f;
  cm_slm_atomic(second, ATOMIC_FADD, counter3, 0, quarter);
  cm_barrier();
  if (me == 0) {
    vector<uint, 4> c;
    cm_slm_block_read(second, 0, c);
    write(out, (11 * SLOT + 8) * sizeof(uint), c.select<4, 1>(0));
  }

  // 14: allocation offsets, and freeing gives the space back.
  cm_slm_free(second);
  uint again = cm_slm_alloc(64);
  if (me == 0) {
    write(out, uint(14 * SLOT), first);
    write(out, uint(14 * SLOT + 1), second);
    write(out, uint(14 * SLOT + 2), again);
  }

  // 14 (from 4): global atomics from every thread.
  vector<uint, 8> slot = 14 * SLOT + 4;
  write_atomic<ATOMIC_INC>(out, slot);
  write_atomic<ATOMIC_ADD>(out, slot + 1, ones * me);

  // 10: a float maximum over the threads, and a compare-exchange that only
  // thread 5 wins (the slot holds 0 until then).
  vector<uint, 1> at10 = 10 * SLOT;
  vector<float, 1> mine = me * 1.5f;
  write_atomic<ATOMIC_FMAX>(out, at10, mine);
  vector<uint, 1> expected = 0, desired = me + 1, previous;
  if (me == 5)
    write_atomic<ATOMIC_CMPXCHG>(out, at10 + 1, expected, desired, previous);
  if (me == 5)
    write(out, uint(10 * SLOT + 2), previous(0) + 77);
}
