// The host side of the C for Metal N-body step that nbody.cpp and
// benchmarks/cm/nbody_bench.cpp share (the kernel is nbody_genx.cpp): the
// bodies, the device with the kernel program loaded, the buffers and kernel
// arguments, the task and queue, and the check of one body against the same
// step computed on the host. The programs differ only in how they size the
// thread groups, how often they enqueue, and what they time.
#ifndef SLMC_EXAMPLES_CM_NBODY_HOST_H
#define SLMC_EXAMPLES_CM_NBODY_HOST_H

#include "cm_example.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define BODIES_CHUNK 16 // bodies per thread, as in the kernel

// A small deterministic generator, so that every run sees the same bodies.
static float next_random(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1u << 24); // [0, 1)
}

static const float delta_time = 0.01f, damping = 0.995f, softening_squared = 0.01f;

struct NBodyHost {
  int num_bodies = 0;
  std::vector<float> pos, vel; // four floats a body: x, y, z, mass (velocity: pad)
  CmDevice *device = nullptr;
  CmKernel *kernel = nullptr;
  CmBuffer *out_pos = nullptr, *out_vel = nullptr;
  CmTask *task = nullptr;
  CmQueue *cmd_queue = nullptr;

  // Creates the bodies and the device, loads the kernel program at
  // `isa_path`, and readies one task that steps all the bodies.
  NBodyHost(const char *isa_path, int bodies) : num_bodies(bodies) {
    // Input: positions in a cube, small masses, small velocities.
    pos.resize(4 * num_bodies);
    vel.resize(4 * num_bodies);
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
    unsigned int version = 0;
    cm_result_check(::CreateCmDevice(device, version));
    std::string isa_code = load_file(isa_path);
    CmProgram *program = nullptr;
    cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                        unsigned(isa_code.size()), program));
    cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(nbody), kernel));

    // Buffers: positions and velocities in, positions and velocities out.
    const unsigned bytes = unsigned(4 * sizeof(float) * num_bodies);
    CmBuffer *in_pos = nullptr, *in_vel = nullptr;
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

    cm_result_check(device->CreateTask(task));
    cm_result_check(task->AddKernel(kernel));
    cm_result_check(device->CreateQueue(cmd_queue));
  }

  // The new positions and velocities, once `event` has finished.
  void read_result(CmEvent *event, std::vector<float> &new_pos, std::vector<float> &new_vel) {
    new_pos.resize(4 * num_bodies);
    new_vel.resize(4 * num_bodies);
    cm_result_check(out_pos->ReadSurface(reinterpret_cast<unsigned char *>(new_pos.data()),
                                         event));
    cm_result_check(out_vel->ReadSurface(reinterpret_cast<unsigned char *>(new_vel.data()),
                                         event));
  }

  // How many components of body i differ from the same step on the host, in
  // double precision; the first few are described on stderr while `reports`
  // (counted down) lasts.
  int check_body(int i, const std::vector<float> &new_pos, const std::vector<float> &new_vel,
                 int &reports) const {
    int mismatches = 0;
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
        if (reports > 0) {
          --reports;
          std::fprintf(stderr, "body %d, component %d: got p=%g v=%g, expected p=%g v=%g\n",
                       i, c, new_pos[4 * i + c], new_vel[4 * i + c], p, v);
        }
        ++mismatches;
      }
    }
    if (new_pos[4 * i + 3] != pos[4 * i + 3])
      ++mismatches; // the mass travels unchanged
    return mismatches;
  }

  void destroy() {
    cm_result_check(device->DestroyTask(task));
    cm_result_check(::DestroyCmDevice(device));
  }
};

#endif
