// Stress of Cilk Plus offload on the CPU fallback, eight host threads at
// once. Five enqueue gfx_kernel tasks with _GFX_offload on the process's one
// in-order queue (a _Cilk_for _Thread_group nest: __thread_group_local
// blocks, _gfx_gpgpu_thread_barrier, a tree reduction), one or two tasks at
// a time on their own _GFX_share'd data, then _GFX_wait with a time limit
// and check every element; they unshare and share their data again now and
// then. Two run the same nest in #pragma offload blocks (in/out clauses) on
// their own threads. One enqueues 1000 small order-sensitive tasks in a row
// and waits once for the last. Then a task at the device's limits (groups
// of 1024 threads, 64 KiB of __thread_group_local data each). All of it ten
// times in a row, fresh threads each time.
//
// With several threads on the one queue, a thread's _GFX_wait may find its
// task already retired by another thread's wait on a later task
// (GFX_TASKID_NOT_FOUND): the task has finished then, so its results are
// checked all the same.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t 10 | FileCheck %s
// CHECK-COUNT-10: gfx stress: 5 threads x 200 offloads, 2 threads x 200 offload blocks, 1000 small offloads, limits 1024 threads / 65536 bytes: PASSED

#include <gfx/gfx_intrin.h>
#include <gfx/gfx_rt.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

// Each block of 64 elements: reversed through thread-group-local memory,
// plus `salt`; the block's sum (before) into sums[b].
__declspec(target(gfx_kernel)) void reverse_sum(int *data, int *sums, int blocks, int salt) {
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local int tile[64];
    __thread_group_local int part[64];
    _Cilk_for (int i = 0; i < 64; i++) {
      tile[i] = data[b * 64 + i];
      part[i] = tile[i];
    }
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < 64; i++)
      data[b * 64 + i] = tile[63 - i] + salt;
    for (int w = 32; w > 0; w /= 2) {
      _Cilk_for (int i = 0; i < w; i++)
        part[i] += part[i + w];
      _gfx_gpgpu_thread_barrier();
    }
    _Cilk_for (int i = 0; i < 1; i++)
      sums[b] = part[0];
  }
}

// One small step of a sequence whose result depends on the order of steps.
__declspec(target(gfx_kernel)) void step(unsigned *v, int n, unsigned k) {
  _Cilk_for (int i = 0; i < n; i++)
    v[i] = v[i] * 3u + k + unsigned(i);
}

// Groups of 1024 threads fill all 64 KiB of their group-local block, then
// thread t sums the 16 elements 1024 apart from the end of the block.
__declspec(target(gfx_kernel)) void at_limits(int *out, unsigned *threads, int groups) {
  _Cilk_for _Thread_group (int g = 0; g < groups; g++) {
    __thread_group_local int block[16384];
    _Cilk_for (int k = 0; k < 16384; k++)
      block[k] = k * 7 + g;
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int t = 0; t < 1024; t++) {
      int s = 0;
      for (int i = 0; i < 16; i++)
        s += block[16383 - t - i * 1024];
      out[g * 1024 + t] = s;
      if (t == 0)
        threads[g] = _gfx_gpgpu_local_size(0);
    }
  }
}

constexpr int kOffloaders = 5, kPragmas = 2, kLaunches = 200, kSmall = 1000;
constexpr int kLimitThreads = 1024, kLimitBytes = 16384 * sizeof(int), kLimitGroups = 2;

static std::atomic<int> bad{0};

#define FAIL(...)                                                              \
  do {                                                                         \
    if (bad++ < 5)                                                             \
      std::printf(__VA_ARGS__);                                                \
  } while (0)

// What reverse_sum does to `x` (sums of the blocks before) on the host.
static void reference(std::vector<int> &x, std::vector<int> &sums, int salt) {
  const int blocks = int(x.size()) / 64;
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int i = 0; i < 64; ++i)
      s += x[b * 64 + i];
    sums[b] = s;
    for (int i = 0; i < 32; ++i)
      std::swap(x[b * 64 + i], x[b * 64 + 63 - i]);
    for (int i = 0; i < 64; ++i)
      x[b * 64 + i] += salt;
  }
}

// Waits for `id` (at most 10 s); true when it has finished.
static bool wait_for(GfxTaskId id, int t, int r) {
  const int status = _GFX_wait(id, 10000);
  if (status == GFX_SUCCESS || status == GFX_TASKID_NOT_FOUND)
    return true; // not found: another thread's wait retired it, finished
  FAIL("thread %d launch %d: _GFX_wait(%llu): %d (%s)\n", t, r, (unsigned long long)id,
       status, slmc_last_error());
  return false;
}

static void offloader(int t) {
  const int blocks = t % 3 + 1, n = blocks * 64;
  std::vector<int> data(n), sums(blocks), want(n), want_sums(blocks);
  if (_GFX_share(data.data(), n * sizeof(int)) != GFX_SUCCESS ||
      _GFX_share(sums.data(), blocks * sizeof(int)) != GFX_SUCCESS) {
    FAIL("thread %d: _GFX_share: %s\n", t, slmc_last_error());
    return;
  }
  for (int r = 0; r < kLaunches; ++r) {
    for (int i = 0; i < n; ++i)
      data[i] = want[i] = (i * 7 + r * 3 + t * 11) % 101;
    const int salt = r * 10 + t;
    GfxTaskId id = _GFX_offload(reverse_sum, data.data(), sums.data(), blocks, salt);
    reference(want, want_sums, salt);
    if (r % 2) { // a second task on the same data, queued behind the first
      id = id ? _GFX_offload(reverse_sum, data.data(), sums.data(), blocks, -salt) : 0;
      reference(want, want_sums, -salt);
    }
    if (!id) {
      FAIL("thread %d launch %d: _GFX_offload: %s\n", t, r, slmc_last_error());
      return;
    }
    if (!wait_for(id, t, r))
      return;
    for (int i = 0; i < n; ++i)
      if (data[i] != want[i])
        FAIL("thread %d launch %d element %d: %d, want %d\n", t, r, i, data[i], want[i]);
    for (int b = 0; b < blocks; ++b)
      if (sums[b] != want_sums[b])
        FAIL("thread %d launch %d block %d: sum %d, want %d\n", t, r, b, sums[b],
             want_sums[b]);
    if (r % 10 == 9) { // unshare and share again, between tasks
      if (_GFX_unshare(data.data()) != GFX_SUCCESS ||
          _GFX_share(data.data(), n * sizeof(int)) != GFX_SUCCESS)
        FAIL("thread %d launch %d: share again: %s\n", t, r, slmc_last_error());
    }
  }
  if (_GFX_unshare(data.data()) != GFX_SUCCESS || _GFX_unshare(sums.data()) != GFX_SUCCESS)
    FAIL("thread %d: _GFX_unshare: %s\n", t, slmc_last_error());
}

// The nest of reverse_sum in an offload block, run by this thread.
static void pragma_offloader(int t) {
  const int blocks = t % 2 + 2, n = blocks * 64;
  std::vector<int> in(n), out(n), sums(blocks), want(n), want_sums(blocks);
  for (int r = 0; r < kLaunches; ++r) {
    for (int i = 0; i < n; ++i)
      in[i] = want[i] = (i * 5 + r * 7 + t * 13) % 97;
    const int salt = r + t * 1000;
    reference(want, want_sums, salt);
    const int *src = in.data();
    int *dst = out.data(), *s = sums.data();
#pragma offload target(gfx) in(src : length(n)) out(dst : length(n)) out(s : length(blocks))
    _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
      __thread_group_local int tile[64];
      __thread_group_local int part[64];
      _Cilk_for (int i = 0; i < 64; i++) {
        tile[i] = src[b * 64 + i];
        part[i] = tile[i];
      }
      _gfx_gpgpu_thread_barrier();
      _Cilk_for (int i = 0; i < 64; i++)
        dst[b * 64 + i] = tile[63 - i] + salt;
      for (int w = 32; w > 0; w /= 2) {
        _Cilk_for (int i = 0; i < w; i++)
          part[i] += part[i + w];
        _gfx_gpgpu_thread_barrier();
      }
      _Cilk_for (int i = 0; i < 1; i++)
        s[b] = part[0];
    }
    for (int i = 0; i < n; ++i)
      if (out[i] != want[i])
        FAIL("offload block thread %d launch %d element %d: %d, want %d\n", t, r, i, out[i],
             want[i]);
    for (int b = 0; b < blocks; ++b)
      if (sums[b] != want_sums[b])
        FAIL("offload block thread %d launch %d block %d: sum %d, want %d\n", t, r, b,
             sums[b], want_sums[b]);
  }
}

// kSmall tasks in a row, one wait: each sees the one before.
static void small_offloads(int t) {
  const int n = 96;
  std::vector<unsigned> v(n), want(n);
  for (int i = 0; i < n; ++i)
    v[i] = want[i] = unsigned(i + t);
  if (_GFX_share(v.data(), n * sizeof(unsigned)) != GFX_SUCCESS) {
    FAIL("small offloads: _GFX_share: %s\n", slmc_last_error());
    return;
  }
  GfxTaskId last = 0;
  for (int k = 0; k < kSmall; ++k) {
    last = _GFX_offload(step, v.data(), n, unsigned(k));
    if (!last) {
      FAIL("small offload %d: %s\n", k, slmc_last_error());
      return;
    }
    for (int i = 0; i < n; ++i)
      want[i] = want[i] * 3u + unsigned(k) + unsigned(i);
  }
  if (wait_for(last, t, kSmall))
    for (int i = 0; i < n; ++i)
      if (v[i] != want[i])
        FAIL("small offloads: element %d: %u, want %u\n", i, v[i], want[i]);
  if (_GFX_unshare(v.data()) != GFX_SUCCESS)
    FAIL("small offloads: _GFX_unshare: %s\n", slmc_last_error());
}

static int round() {
  bad = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kOffloaders; ++t)
    threads.emplace_back(offloader, t);
  for (int t = 0; t < kPragmas; ++t)
    threads.emplace_back(pragma_offloader, kOffloaders + t);
  threads.emplace_back(small_offloads, kOffloaders + kPragmas);
  for (std::thread &th : threads)
    th.join();
  if (_GFX_wait(0, 10000) != GFX_SUCCESS) // nothing may be left
    FAIL("_GFX_wait(0): %s\n", slmc_last_error());

  // At the limits: the largest group, all of its group-local memory.
  slmc_device_info info{};
  if (slmc_get_device_info(&info) != SLMC_SUCCESS)
    FAIL("slmc_get_device_info: %s\n", slmc_last_error());
  if (info.max_group_size != kLimitThreads || info.max_group_local_memory != kLimitBytes)
    FAIL("the device allows %llu threads / %llu bytes; the kernel is built for %d / %d\n",
         (unsigned long long)info.max_group_size,
         (unsigned long long)info.max_group_local_memory, kLimitThreads, kLimitBytes);
  std::vector<int> out(kLimitThreads * kLimitGroups, -1);
  std::vector<unsigned> group_threads(kLimitGroups);
  _GFX_share(out.data(), out.size() * sizeof(int));
  _GFX_share(group_threads.data(), group_threads.size() * sizeof(unsigned));
  GfxTaskId id = _GFX_offload(at_limits, out.data(), group_threads.data(), kLimitGroups);
  if (!id || _GFX_wait(id, 10000) != GFX_SUCCESS)
    FAIL("limits: %s\n", slmc_last_error());
  _GFX_unshare(out.data());
  _GFX_unshare(group_threads.data());
  for (int g = 0; g < kLimitGroups; ++g) {
    if (group_threads[g] != kLimitThreads)
      FAIL("limits: group %d had %u threads\n", g, group_threads[g]);
    for (int t = 0; t < kLimitThreads; ++t) {
      int want = 0;
      for (int i = 0; i < 16; ++i)
        want += (16383 - t - i * 1024) * 7 + g;
      if (out[g * kLimitThreads + t] != want)
        FAIL("limits: group %d thread %d: %d, want %d\n", g, t, out[g * kLimitThreads + t],
             want);
    }
  }
  std::printf("gfx stress: %d threads x %d offloads, %d threads x %d offload blocks, %d small "
              "offloads, limits %llu threads / %llu bytes: %s\n",
              kOffloaders, kLaunches, kPragmas, kLaunches, kSmall,
              (unsigned long long)info.max_group_size,
              (unsigned long long)info.max_group_local_memory, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  for (int r = 0; r < rounds; ++r)
    if (round() != 0)
      return 1;
  return 0;
}
