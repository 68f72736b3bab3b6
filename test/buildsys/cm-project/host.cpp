// Host side: loads kernels/scale_genx.isa, scales 4096 integers, checks them.
#include <cm_rt.h>
#include "scale_params.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    int r_ = (call);                                                           \
    if (r_ != CM_SUCCESS) {                                                    \
      std::printf("%s: %s\n", #call, GetCmErrorString(r_));                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : KERNEL_ISA;
  std::ifstream file(path, std::ios::binary);
  std::string isa((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (isa.empty()) {
    std::printf("cannot read %s\n", path);
    return 1;
  }
  const int n = 4096, threads = n / ELEMS_PER_THREAD;
  std::vector<int> data(n), result(n);
  for (int i = 0; i < n; ++i)
    data[i] = i - 100;

  CmDevice *device = nullptr;
  unsigned int version = 0;
  CHECK(::CreateCmDevice(device, version));
  CmProgram *program = nullptr;
  CHECK(device->LoadProgram(const_cast<char *>(isa.data()), unsigned(isa.size()), program));
  CmKernel *kernel = nullptr;
  CHECK(device->CreateKernel(program, "scale", kernel));
  CmBuffer *in = nullptr, *out = nullptr;
  CHECK(device->CreateBuffer(n * sizeof(int), in));
  CHECK(device->CreateBuffer(n * sizeof(int), out));
  CHECK(in->WriteSurface(reinterpret_cast<unsigned char *>(data.data()), nullptr));
  SurfaceIndex *in_index = nullptr, *out_index = nullptr;
  CHECK(in->GetIndex(in_index));
  CHECK(out->GetIndex(out_index));
  CHECK(kernel->SetKernelArg(0, sizeof(SurfaceIndex), in_index));
  CHECK(kernel->SetKernelArg(1, sizeof(SurfaceIndex), out_index));
  CmThreadGroupSpace *space = nullptr;
  CHECK(device->CreateThreadGroupSpace(GROUP_THREADS, 1, threads / GROUP_THREADS, 1, space));
  CmTask *task = nullptr;
  CHECK(device->CreateTask(task));
  CHECK(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  CHECK(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  CHECK(queue->EnqueueWithGroup(task, event, space));
  CHECK(event->WaitForTaskFinished());
  CHECK(out->ReadSurface(reinterpret_cast<unsigned char *>(result.data()), event));
  CHECK(::DestroyCmDevice(device));

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += result[i] != data[i] * GROUP_THREADS;
  std::printf("cm_scale: %d of %d wrong: %s\n", wrong, n, wrong ? "FAILED" : "PASSED");
  return wrong != 0;
}
