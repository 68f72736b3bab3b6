// Stress of the C for Metal host API on the CPU fallback: eight host threads
// run small SLM kernels back to back. Four share one CmDevice (its one
// queue, each with its own program, kernel, task and buffers), four have a
// device each. Every launch is one WriteSurface, an EnqueueWithGroup (a
// thread-group space: cm_slm_init, cm_slm_alloc, cm_slm_load, a tree
// reduction with cm_slm_read/cm_slm_write and barriers) or an Enqueue (a
// thread space, one thread per group), WaitForTaskFinished and ReadSurface
// of two buffers, every element checked; buffers are created and destroyed
// between launches (each GetIndex taken before the next buffer exists, as
// CM programs do) while the other threads use theirs. Then a launch at the
// device's limits (thread groups of the most threads the device allows,
// each using all the SLM a group can have) and the refusal of a group one
// thread larger. All of it ten times in a row, fresh devices and threads
// each time.
// RUN: %slmcxx --emit=program -DSTRESS_KERNELS %s -o %t.isa
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t %t.isa 10 | FileCheck %s
// CHECK-COUNT-10: cm stress: 8 threads x 200 launches, limits 1024 threads / 65536 bytes: PASSED

#ifdef STRESS_KERNELS
#include <cm/cm.h>

#define MAX_THREADS 64 // threads per group of reverse_sum, at most
#define LIMIT_THREADS 1024
#define LIMIT_SLM 65536

// Each thread of a group of T threads owns 8 consecutive uints of the
// group's chunk of `in` (T * 8 uints). The chunk is loaded into SLM; thread
// t writes to `out` its 8 elements of the chunk reversed, plus `salt`, and
// the group's sum to `sums`, through a tree reduction in SLM (a row of 8
// uints per thread: SLM reads and writes move 8, 16 or 32 elements).
extern "C" _GENX_MAIN_ void reverse_sum(SurfaceIndex in, SurfaceIndex out,
                                        SurfaceIndex sums, int salt) {
  cm_slm_init(2 * MAX_THREADS * 8 * sizeof(uint));
  const uint threads = cm_linear_local_size(), t = cm_linear_local_id();
  const uint group = cm_linear_group_id(), chunk = threads * 8;
  uint data = cm_slm_alloc(chunk * sizeof(uint));
  uint partial = cm_slm_alloc(chunk * sizeof(uint));
  cm_slm_load(data, in, group * chunk * sizeof(uint), chunk * sizeof(uint));

  vector<uint, 8> at, mine;
  for (int i = 0; i < 8; ++i)
    at(i) = chunk - 1 - (t * 8 + i);
  cm_slm_read(data, at, mine);
  write(out, (group * chunk + t * 8) * sizeof(uint), mine + salt);

  vector<uint, 8> row, other_row, sum = 0;
  for (int i = 0; i < 8; ++i)
    row(i) = t * 8 + i;
  cm_slm_read(data, row, mine);
  for (int i = 0; i < 8; ++i)
    sum(0) += mine(i);
  cm_slm_write(partial, row, sum);
  cm_barrier();
  for (uint half = threads / 2; half > 0; half /= 2) {
    if (t < half) {
      vector<uint, 8> a, b;
      other_row = row + half * 8;
      cm_slm_read(partial, row, a);
      cm_slm_read(partial, other_row, b);
      cm_slm_write(partial, row, a + b);
    }
    cm_barrier();
  }
  if (t == 0) {
    cm_slm_read(partial, row, sum);
    write(sums, group, uint(sum(0))); // one scalar, at element `group`
  }
}

// Groups of LIMIT_THREADS threads fill all LIMIT_SLM bytes of their SLM
// (element k = k * 7 + group), then thread t writes the sum of the 16
// elements LIMIT_THREADS apart from the end of the block back to its start.
extern "C" _GENX_MAIN_ void at_limits(SurfaceIndex out) {
  cm_slm_init(LIMIT_SLM);
  uint block = cm_slm_alloc(LIMIT_SLM);
  const uint t = cm_linear_local_id(), group = cm_linear_group_id();
  const uint elements = LIMIT_SLM / sizeof(uint);
  vector<uint, 16> at, values;
  for (int i = 0; i < 16; ++i) {
    at(i) = t + i * LIMIT_THREADS;
    values(i) = (t + i * LIMIT_THREADS) * 7 + group;
  }
  cm_slm_write(block, at, values);
  cm_barrier();
  for (int i = 0; i < 16; ++i)
    at(i) = elements - 1 - t - i * LIMIT_THREADS;
  cm_slm_read(block, at, values);
  uint sum = 0;
  for (int i = 0; i < 16; ++i)
    sum += values(i);
  write(out, group * LIMIT_THREADS + t, sum);
}

#else // the host program

#include <cm_rt.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

constexpr int kThreads = 8, kShared = 4, kLaunches = 200, kGroupThreads = 64;
constexpr unsigned kLimitThreads = 1024, kLimitSlm = 65536, kLimitGroups = 2;

static std::string program_code;

// A failed CM call ends the process at once, naming the call.
#define CHECK(call)                                                            \
  do {                                                                         \
    int r_ = (call);                                                           \
    if (r_ != CM_SUCCESS) {                                                    \
      std::printf("%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,          \
                  GetCmErrorString(r_), slmc_last_error());                    \
      std::fflush(stdout);                                                     \
      std::_Exit(1);                                                           \
    }                                                                          \
  } while (0)

static void worker(CmDevice *shared, int t, std::atomic<int> &bad) {
  CmDevice *device = shared;
  UINT version = 0;
  if (!device)
    CHECK(CreateCmDevice(device, version));
  CmProgram *program = nullptr;
  CHECK(device->LoadProgram(program_code.data(), UINT(program_code.size()), program));
  CmKernel *kernel = nullptr;
  CHECK(device->CreateKernel(program, "reverse_sum", kernel));
  CmQueue *queue = nullptr;
  CHECK(device->CreateQueue(queue));
  CmTask *task = nullptr;
  CHECK(device->CreateTask(task));
  CHECK(task->AddKernel(kernel));

  const int groups = t % 3 + 1, n = groups * kGroupThreads * 8;
  const UINT bytes = UINT(n * sizeof(unsigned));
  // Each buffer's index is taken before the next buffer is created.
  CmBuffer *in = nullptr, *out = nullptr, *sums = nullptr;
  SurfaceIndex *in_i = nullptr, *out_i = nullptr, *sums_i = nullptr;
  CHECK(device->CreateBuffer(bytes, in));
  CHECK(in->GetIndex(in_i));
  CHECK(device->CreateBuffer(bytes, out));
  CHECK(out->GetIndex(out_i));
  CHECK(device->CreateBuffer(UINT(n / 8 * sizeof(unsigned)), sums));
  CHECK(sums->GetIndex(sums_i));
  CmThreadGroupSpace *space = nullptr;
  CHECK(device->CreateThreadGroupSpace(kGroupThreads, 1, groups, 1, space));
  CmThreadSpace *singles = nullptr; // one thread per group: n / 8 groups
  CHECK(device->CreateThreadSpace(UINT(n / 8), 1, singles));

  std::vector<unsigned> host(n), back(n), group_sums(n / 8);
  std::vector<CmBuffer *> scratch;
  for (int r = 0; r < kLaunches; ++r) {
    // Buffers come and go while the kernel's arguments are being set.
    if (r % 8 == 0) {
      CmBuffer *b = nullptr;
      CHECK(device->CreateBuffer(UINT(64 + 16 * r), b));
      CHECK(b->InitSurface(DWORD(r), nullptr));
      scratch.push_back(b);
    }
    if (r % 24 == 23) {
      for (CmBuffer *&b : scratch)
        CHECK(device->DestroySurface(b));
      scratch.clear();
    }
    for (int i = 0; i < n; ++i)
      host[i] = unsigned((i * 13 + r * 5 + t * 101) % 1000);
    CHECK(in->WriteSurface(reinterpret_cast<unsigned char *>(host.data()), nullptr));
    const int salt = r * 1000 + t;
    CHECK(kernel->SetKernelArg(0, sizeof(SurfaceIndex), in_i));
    CHECK(kernel->SetKernelArg(1, sizeof(SurfaceIndex), out_i));
    CHECK(kernel->SetKernelArg(2, sizeof(SurfaceIndex), sums_i));
    CHECK(kernel->SetKernelArg(3, sizeof(int), &salt));
    const bool grouped = r % 3 != 2;
    const int per_group = grouped ? kGroupThreads : 1;
    CmEvent *event = nullptr;
    if (grouped)
      CHECK(queue->EnqueueWithGroup(task, event, space));
    else
      CHECK(queue->Enqueue(task, event, singles));
    CHECK(event->WaitForTaskFinished());
    CHECK(out->ReadSurface(reinterpret_cast<unsigned char *>(back.data()), event));
    CHECK(sums->ReadSurface(reinterpret_cast<unsigned char *>(group_sums.data()), event));
    CHECK(queue->DestroyEvent(event));

    const int chunk = per_group * 8, launched = n / chunk;
    for (int g = 0; g < launched; ++g) {
      unsigned want_sum = 0;
      for (int i = 0; i < chunk; ++i) {
        want_sum += host[g * chunk + i];
        const unsigned want = host[g * chunk + chunk - 1 - i] + unsigned(salt);
        if (back[g * chunk + i] != want && bad++ < 5)
          std::printf("thread %d launch %d group %d element %d: %u, want %u\n", t, r, g,
                      i, back[g * chunk + i], want);
      }
      if (group_sums[g] != want_sum && bad++ < 5)
        std::printf("thread %d launch %d group %d: sum %u, want %u\n", t, r, g,
                    group_sums[g], want_sum);
    }
  }
  for (CmBuffer *&b : scratch)
    CHECK(device->DestroySurface(b));
  CHECK(device->DestroySurface(in));
  CHECK(device->DestroySurface(out));
  CHECK(device->DestroySurface(sums));
  CHECK(device->DestroyThreadGroupSpace(space));
  CHECK(device->DestroyThreadSpace(singles));
  CHECK(device->DestroyTask(task));
  CHECK(device->DestroyKernel(kernel));
  CHECK(device->DestroyProgram(program));
  if (!shared)
    CHECK(DestroyCmDevice(device));
}

static int round() {
  std::atomic<int> bad{0};
  CmDevice *shared = nullptr;
  UINT version = 0;
  CHECK(CreateCmDevice(shared, version));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t < kShared ? shared : nullptr, t, std::ref(bad));
  for (std::thread &th : threads)
    th.join();

  // At the limits: the device's largest thread group, all of its SLM.
  size_t size = sizeof(UINT);
  UINT max_threads = 0, max_slm = 0;
  CHECK(shared->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP, size, &max_threads));
  size = sizeof(UINT);
  CHECK(shared->GetCaps(CAP_SLMC_MAX_SLM_SIZE, size, &max_slm));
  if ((max_threads != kLimitThreads || max_slm != kLimitSlm) && bad++ < 5)
    std::printf("the device allows %u threads / %u bytes; the kernel is built for %u / %u\n",
                max_threads, max_slm, kLimitThreads, kLimitSlm);
  CmProgram *program = nullptr;
  CHECK(shared->LoadProgram(program_code.data(), UINT(program_code.size()), program));
  CmKernel *kernel = nullptr;
  CHECK(shared->CreateKernel(program, "at_limits", kernel));
  CmBuffer *out = nullptr;
  const unsigned n = kLimitThreads * kLimitGroups;
  CHECK(shared->CreateBuffer(UINT(n * sizeof(unsigned)), out));
  SurfaceIndex *out_i = nullptr;
  CHECK(out->GetIndex(out_i));
  CHECK(kernel->SetKernelArg(0, sizeof(SurfaceIndex), out_i));
  CmThreadGroupSpace *space = nullptr;
  CHECK(shared->CreateThreadGroupSpace(32, kLimitThreads / 32, kLimitGroups, 1, space));
  CmTask *task = nullptr;
  CHECK(shared->CreateTask(task));
  CHECK(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  CHECK(shared->CreateQueue(queue));
  CmEvent *event = nullptr;
  CHECK(queue->EnqueueWithGroup(task, event, space));
  std::vector<unsigned> got(n);
  CHECK(out->ReadSurface(reinterpret_cast<unsigned char *>(got.data()), event));
  const unsigned elements = kLimitSlm / sizeof(unsigned);
  for (unsigned g = 0; g < kLimitGroups; ++g)
    for (unsigned t = 0; t < kLimitThreads; ++t) {
      unsigned want = 0;
      for (unsigned i = 0; i < 16; ++i)
        want += (elements - 1 - t - i * kLimitThreads) * 7 + g;
      if (got[g * kLimitThreads + t] != want && bad++ < 5)
        std::printf("limits: group %u thread %u: %u, want %u\n", g, t,
                    got[g * kLimitThreads + t], want);
    }
  // One thread more than the device allows is refused, not run.
  CmThreadGroupSpace *too_big = nullptr;
  const int refused = shared->CreateThreadGroupSpace(max_threads + 1, 1, 1, 1, too_big);
  if (refused != CM_INVALID_THREAD_GROUP_SPACE && bad++ < 5)
    std::printf("a group of %u threads: %s\n", max_threads + 1, GetCmErrorString(refused));
  CHECK(DestroyCmDevice(shared));

  std::printf("cm stress: %d threads x %d launches, limits %u threads / %u bytes: %s\n",
              kThreads, kLaunches, max_threads, max_slm, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [rounds]\n", argv[0]);
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  program_code.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (program_code.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 1;
  for (int r = 0; r < rounds; ++r)
    if (round() != 0)
      return 1;
  return 0;
}

#endif
