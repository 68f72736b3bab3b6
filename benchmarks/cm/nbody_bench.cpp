// Benchmark: the C for Metal N-body step (kernel: nbody_genx.cpp, the kernel
// of examples/cm/nbody_genx.cpp), host code in the structure of the example's
// host program (examples/cm/nbody.cpp), timed on whatever device slmc's
// runtime picks: enqueues only, after a warm-up enqueue, waiting on the last
// task's event. Every launch reads the same positions and velocities and
// writes new ones to other buffers, so the result of the last launch is
// checked for a sample of bodies against a host computation in double.
//
// The thread-group size is an argument here (the example takes the largest
// the device allows, which leaves most of a large GPU idle: each thread owns
// 16 bodies, so a group of 1024 threads holds 16384 bodies).
//
// Build and run:
//   slmc++ --emit=program nbody_genx.cpp -o nbody_genx.isa
//   slmc++ -O3 nbody_bench.cpp -o nbody_bench
//   ./nbody_bench nbody_genx.isa [bodies=262144 [threads per group=128 [repetitions=3]]]
// Prints one line: "cm nbody N=<bodies> <ms> ms <G interactions/s> Gint/s verified".
#include <cm_rt.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define BODIES_CHUNK 16 // bodies per thread, as in the kernel

#define cm_result_check(call)                                                  \
  do {                                                                         \
    int result_ = (call);                                                      \
    if (result_ != CM_SUCCESS) {                                               \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #call,                      \
                   GetCmErrorString(result_), slmc_last_error());              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static std::string load_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(1);
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

static float next_random(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1u << 24); // [0, 1)
}

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
  const float delta_time = 0.01f, damping = 0.995f, softening_squared = 0.01f;

  std::vector<float> pos(4 * num_bodies), vel(4 * num_bodies);
  uint32_t seed = 12345;
  for (int i = 0; i < num_bodies; ++i) {
    for (int c = 0; c < 3; ++c)
      pos[4 * i + c] = 2.0f * next_random(seed) - 1.0f;
    pos[4 * i + 3] = (0.5f + next_random(seed)) / float(num_bodies);
    for (int c = 0; c < 3; ++c)
      vel[4 * i + c] = 0.1f * (next_random(seed) - 0.5f);
    vel[4 * i + 3] = 0.0f;
  }

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(nbody), kernel));

  const unsigned bytes = unsigned(4 * sizeof(float) * num_bodies);
  CmBuffer *in_pos = nullptr, *in_vel = nullptr, *out_pos = nullptr, *out_vel = nullptr;
  cm_result_check(device->CreateBuffer(bytes, in_pos));
  cm_result_check(device->CreateBuffer(bytes, in_vel));
  cm_result_check(device->CreateBuffer(bytes, out_pos));
  cm_result_check(device->CreateBuffer(bytes, out_vel));
  cm_result_check(in_pos->WriteSurface(reinterpret_cast<unsigned char *>(pos.data()), nullptr));
  cm_result_check(in_vel->WriteSurface(reinterpret_cast<unsigned char *>(vel.data()), nullptr));

  SurfaceIndex *in_pos_index = nullptr, *in_vel_index = nullptr,
               *out_pos_index = nullptr, *out_vel_index = nullptr;
  cm_result_check(in_pos->GetIndex(in_pos_index));
  cm_result_check(in_vel->GetIndex(in_vel_index));
  cm_result_check(out_pos->GetIndex(out_pos_index));
  cm_result_check(out_vel->GetIndex(out_vel_index));
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), in_pos_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), in_vel_index));
  cm_result_check(kernel->SetKernelArg(2, sizeof(SurfaceIndex), out_pos_index));
  cm_result_check(kernel->SetKernelArg(3, sizeof(SurfaceIndex), out_vel_index));
  cm_result_check(kernel->SetKernelArg(4, sizeof(float), &delta_time));
  cm_result_check(kernel->SetKernelArg(5, sizeof(float), &damping));
  cm_result_check(kernel->SetKernelArg(6, sizeof(float), &softening_squared));
  cm_result_check(kernel->SetKernelArg(7, sizeof(int), &num_bodies));

  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *cmd_queue = nullptr;
  cm_result_check(device->CreateQueue(cmd_queue));

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

  std::vector<float> new_pos(4 * num_bodies), new_vel(4 * num_bodies);
  cm_result_check(out_pos->ReadSurface(reinterpret_cast<unsigned char *>(new_pos.data()),
                                       events[reps - 1]));
  cm_result_check(out_vel->ReadSurface(reinterpret_cast<unsigned char *>(new_vel.data()),
                                       events[reps - 1]));
  for (CmEvent *&e : events)
    cm_result_check(cmd_queue->DestroyEvent(e));

  int mismatches = 0;
  for (int s = 0; s < 64; ++s) {
    int i = int((long long)s * 7919 % num_bodies);
    double f[3] = {0, 0, 0};
    for (int j = 0; j < num_bodies; ++j) {
      double d[3], dist2 = softening_squared;
      for (int c = 0; c < 3; ++c) {
        d[c] = double(pos[4 * j + c]) - pos[4 * i + c];
        dist2 += d[c] * d[c];
      }
      double k = pos[4 * j + 3] / (dist2 * std::sqrt(dist2));
      for (int c = 0; c < 3; ++c)
        f[c] += d[c] * k;
    }
    for (int c = 0; c < 3; ++c) {
      double v = (vel[4 * i + c] + f[c] * delta_time) * damping;
      double p = pos[4 * i + c] + v * delta_time;
      double ev = std::fabs(new_vel[4 * i + c] - v) / (std::fabs(v) + 1e-2);
      double ep = std::fabs(new_pos[4 * i + c] - p) / (std::fabs(p) + 1e-2);
      if (!(ev < 1e-3) || !(ep < 1e-3))
        ++mismatches;
    }
    if (new_pos[4 * i + 3] != pos[4 * i + 3])
      ++mismatches;
  }

  cm_result_check(device->DestroyThreadGroupSpace(space));
  cm_result_check(device->DestroyTask(task));
  cm_result_check(::DestroyCmDevice(device));
  std::printf("cm nbody N=%d %.4f ms %.1f Gint/s %s (groups of %d threads)\n", num_bodies, ms,
              double(num_bodies) * num_bodies / (ms * 1e6),
              mismatches ? "WRONG" : "verified", group_threads);
  return mismatches ? 1 : 0;
}
