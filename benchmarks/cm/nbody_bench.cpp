// Benchmark: the C for Metal N-body step (kernel: examples/cm/nbody_genx.cpp;
// host code shared with the example's host program examples/cm/nbody.cpp in
// examples/cm/nbody_host.h), timed on whatever device slmc's runtime picks:
// enqueues only, after a warm-up enqueue, waiting on the last task's event.
// Every launch reads the same positions and velocities and writes new ones to
// other buffers, so the result of the last launch is checked for a sample of
// bodies against a host computation in double.
//
// The thread-group size is an argument here (the example takes the largest
// the device allows, which leaves most of a large GPU idle: each thread owns
// 16 bodies, so a group of 1024 threads holds 16384 bodies).
//
// Build and run:
//   slmc++ --emit=program ../../examples/cm/nbody_genx.cpp -o nbody_genx.isa
//   slmc++ -O3 nbody_bench.cpp -o nbody_bench
//   ./nbody_bench nbody_genx.isa [bodies=262144 [threads per group=128 [repetitions=3]]]
// Prints one line: "cm nbody N=<bodies> <ms> ms <G interactions/s> Gint/s verified".
#include "../../examples/cm/nbody_host.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s program.isa [bodies [threads per group [repetitions]]]\n",
                 argv[0]);
    return 2;
  }
  const int num_bodies = argc > 2 ? std::atoi(argv[2]) : 262144;
  int group_threads = argc > 3 ? std::atoi(argv[3]) : 128;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 3;
  const int threads = num_bodies / BODIES_CHUNK;
  if (num_bodies <= 0 || num_bodies % BODIES_CHUNK != 0 || group_threads <= 0 ||
      threads % group_threads != 0 || reps <= 0) {
    std::fprintf(stderr,
                 "the number of bodies must be a positive multiple of %d, and the number "
                 "of threads (bodies / %d) a multiple of the group size\n",
                 BODIES_CHUNK, BODIES_CHUNK);
    return 2;
  }
  NBodyHost host(argv[1], num_bodies);
  CmDevice *device = host.device;
  CmQueue *cmd_queue = host.cmd_queue;
  CmTask *task = host.task;

  // Warm-up (program build / JIT). If the kernel cannot run groups this
  // large (register use), smaller groups are tried, as in the example.
  CmThreadGroupSpace *space = nullptr;
  CmEvent *event = nullptr;
  for (;;) {
    cm_result_check(device->CreateThreadGroupSpace(group_threads, 1,
                                                   threads / group_threads, 1, space));
    int result = cmd_queue->EnqueueWithGroup(task, event, space);
    if (result != CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE || group_threads == 1) {
      cm_result_check(result);
      break;
    }
    cm_result_check(device->DestroyThreadGroupSpace(space));
    group_threads /= 2;
  }
  cm_result_check(event->WaitForTaskFinished());
  cm_result_check(cmd_queue->DestroyEvent(event));

  std::vector<CmEvent *> events(reps, nullptr);
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    cm_result_check(cmd_queue->EnqueueWithGroup(task, events[r], space));
  cm_result_check(events[reps - 1]->WaitForTaskFinished());
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;

  std::vector<float> new_pos, new_vel;
  host.read_result(events[reps - 1], new_pos, new_vel);
  for (CmEvent *&e : events)
    cm_result_check(cmd_queue->DestroyEvent(e));

  // A sample of bodies against the host, in double precision.
  int mismatches = 0, reports = 0;
  for (int s = 0; s < 64; ++s)
    mismatches += host.check_body(int((long long)s * 7919 % num_bodies), new_pos, new_vel,
                                  reports);

  cm_result_check(device->DestroyThreadGroupSpace(space));
  host.destroy();
  std::printf("cm nbody N=%d %.4f ms %.1f Gint/s %s (groups of %d threads)\n", num_bodies, ms,
              double(num_bodies) * num_bodies / (ms * 1e6),
              mismatches ? "WRONG" : "verified", group_threads);
  return mismatches ? 1 : 0;
}
