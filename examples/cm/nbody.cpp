// N-body step in C for Metal: the host program (in the structure of Intel's
// CM tutorial 6). It loads the kernel program built from nbody_genx.cpp,
// asks the device how many threads a thread group may hold, spreads the
// threads over thread groups, runs one step with EnqueueWithGroup and checks
// the result against the same step computed on the host.
//
// Build and run:
//   slmc++ --emit=program nbody_genx.cpp -o nbody_genx.isa
//   slmc++ nbody.cpp -o nbody
//   ./nbody nbody_genx.isa [bodies [max threads per group]]
#include <cm_rt.h>

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

// A small deterministic generator, so that every run sees the same bodies.
static float next_random(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1u << 24); // [0, 1)
}

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
  const float delta_time = 0.01f, damping = 0.995f, softening_squared = 0.01f;

  // Input: positions in a cube, small masses, small velocities.
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

  // Creates the device and loads the kernel.
  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(nbody), kernel));

  // Buffers: positions and velocities in, positions and velocities out.
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

  // Each thread owns BODIES_CHUNK bodies. Groups should be as large as the
  // device allows, so that SLM is shared by as many threads as possible.
  int threads = num_bodies / BODIES_CHUNK;
  size_t size = 4;
  int max_thread_count_per_thread_group = 0;
  cm_result_check(device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP,
                                  size, &max_thread_count_per_thread_group));
  if (group_limit > 0 && group_limit < max_thread_count_per_thread_group)
    max_thread_count_per_thread_group = group_limit;
  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *cmd_queue = nullptr;
  cm_result_check(device->CreateQueue(cmd_queue));

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
    int result = cmd_queue->EnqueueWithGroup(task, sync_event, thread_group_space);
    if (result != CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE ||
        max_thread_count_per_thread_group == 1) {
      cm_result_check(result);
      break;
    }
    cm_result_check(device->DestroyThreadGroupSpace(thread_group_space));
    max_thread_count_per_thread_group /= 2;
  }
  cm_result_check(sync_event->WaitForTaskFinished());

  std::vector<float> new_pos(4 * num_bodies), new_vel(4 * num_bodies);
  cm_result_check(out_pos->ReadSurface(reinterpret_cast<unsigned char *>(new_pos.data()),
                                       sync_event));
  cm_result_check(out_vel->ReadSurface(reinterpret_cast<unsigned char *>(new_vel.data()),
                                       sync_event));

  // The same step on the host, in double precision.
  int mismatches = 0;
  for (int i = 0; i < num_bodies; ++i) {
    double f[3] = {0, 0, 0};
    for (int j = 0; j < num_bodies; ++j) {
      double d[3], dist2 = softening_squared;
      for (int c = 0; c < 3; ++c) {
        d[c] = double(pos[4 * j + c]) - pos[4 * i + c];
        dist2 += d[c] * d[c];
      }
      double s = pos[4 * j + 3] / (dist2 * std::sqrt(dist2));
      for (int c = 0; c < 3; ++c)
        f[c] += d[c] * s;
    }
    for (int c = 0; c < 3; ++c) {
      double v = (vel[4 * i + c] + f[c] * delta_time) * damping;
      double p = pos[4 * i + c] + v * delta_time;
      double ev = std::fabs(new_vel[4 * i + c] - v) / (std::fabs(v) + 1e-2);
      double ep = std::fabs(new_pos[4 * i + c] - p) / (std::fabs(p) + 1e-2);
      if (!(ev < 1e-3) || !(ep < 1e-3)) {
        if (mismatches < 5)
          std::fprintf(stderr, "body %d, component %d: got p=%g v=%g, expected p=%g v=%g\n",
                       i, c, new_pos[4 * i + c], new_vel[4 * i + c], p, v);
        ++mismatches;
      }
    }
    if (new_pos[4 * i + 3] != pos[4 * i + 3])
      ++mismatches; // the mass travels unchanged
  }

  cm_result_check(cmd_queue->DestroyEvent(sync_event));
  cm_result_check(device->DestroyThreadGroupSpace(thread_group_space));
  cm_result_check(device->DestroyTask(task));
  cm_result_check(::DestroyCmDevice(device));

  std::printf("nbody %d bodies, %d thread groups of %d threads: %s (%d mismatches)\n",
              num_bodies, group_count, threads / group_count,
              mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
