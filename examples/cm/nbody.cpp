// N-body step in C for Metal: the host program (in the structure of Intel's
// CM tutorial 6). It loads the kernel program built from nbody_genx.cpp,
// asks the device how many threads a thread group may hold, spreads the
// threads over thread groups, runs one step with EnqueueWithGroup and checks
// the result against the same step computed on the host. The host code it
// shares with benchmarks/cm/nbody_bench.cpp (the bodies, the device and
// kernel, buffers, arguments, the host's step) is in nbody_host.h.
//
// Build and run:
//   slmc++ --emit=program nbody_genx.cpp -o nbody_genx.isa
//   slmc++ nbody.cpp -o nbody
//   ./nbody nbody_genx.isa [bodies [max threads per group]]
#include "nbody_host.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [bodies [max threads per group]]\n",
                 argv[0]);
    return 2;
  }
  const int num_bodies = argc > 2 ? std::atoi(argv[2]) : 4096;
  const int group_limit = argc > 3 ? std::atoi(argv[3]) : 0;
  if (num_bodies <= 0 || num_bodies % BODIES_CHUNK != 0) {
    std::fprintf(stderr, "the number of bodies must be a positive multiple of %d\n",
                 BODIES_CHUNK);
    return 2;
  }
  // The bodies, the device with the kernel loaded, buffers, arguments, the
  // task and the queue.
  NBodyHost host(argv[1], num_bodies);
  CmDevice *device = host.device;

  // Each thread owns BODIES_CHUNK bodies. Groups should be as large as the
  // device allows, so that SLM is shared by as many threads as possible.
  int threads = num_bodies / BODIES_CHUNK;
  size_t size = 4;
  int max_thread_count_per_thread_group = 0;
  cm_result_check(device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP,
                                  size, &max_thread_count_per_thread_group));
  if (group_limit > 0 && group_limit < max_thread_count_per_thread_group)
    max_thread_count_per_thread_group = group_limit;

  // The device's limit is for any kernel; a kernel that needs many registers
  // may run fewer threads per group (on CUDA, say). Then the enqueue says
  // so, and smaller groups are tried.
  int group_count = 0;
  CmThreadGroupSpace *thread_group_space = nullptr;
  CmEvent *sync_event = nullptr;
  for (;;) {
    group_count = (threads + max_thread_count_per_thread_group - 1) /
                  max_thread_count_per_thread_group;
    while (threads % group_count != 0)
      group_count++;
    cm_result_check(device->CreateThreadGroupSpace(threads / group_count, 1, group_count,
                                                   1, thread_group_space));
    int result = host.cmd_queue->EnqueueWithGroup(host.task, sync_event, thread_group_space);
    if (result != CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE ||
        max_thread_count_per_thread_group == 1) {
      cm_result_check(result);
      break;
    }
    cm_result_check(device->DestroyThreadGroupSpace(thread_group_space));
    max_thread_count_per_thread_group /= 2;
  }
  cm_result_check(sync_event->WaitForTaskFinished());

  std::vector<float> new_pos, new_vel;
  host.read_result(sync_event, new_pos, new_vel);

  // The same step on the host, in double precision.
  int mismatches = 0, reports = 5;
  for (int i = 0; i < num_bodies; ++i)
    mismatches += host.check_body(i, new_pos, new_vel, reports);

  cm_result_check(host.cmd_queue->DestroyEvent(sync_event));
  cm_result_check(device->DestroyThreadGroupSpace(thread_group_space));
  host.destroy();

  std::printf("nbody %d bodies, %d thread groups of %d threads: %s (%d mismatches)\n",
              num_bodies, group_count, threads / group_count,
              mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
