// Host program of rotate_genx.cpp: each group's blocks move one thread down.
#include <cm_rt.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  if (int r_ = (call); r_ != CM_SUCCESS) {                                     \
    std::printf("%s: %s\n", #call, GetCmErrorString(r_));                      \
    return 1;                                                                  \
  }

int main(int argc, char **argv) {
  std::ifstream f(argv[1], std::ios::binary);
  std::string isa((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const int threads = 8, groups = 4, lanes = 16, n = threads * groups * lanes;
  std::vector<unsigned> data(n);
  for (int i = 0; i < n; ++i)
    data[i] = unsigned(i);
  CmDevice *device = nullptr;
  unsigned version = 0;
  CHECK(::CreateCmDevice(device, version));
  CmProgram *program = nullptr;
  CHECK(device->LoadProgram(isa.data(), unsigned(isa.size()), program));
  CmKernel *kernel = nullptr;
  CHECK(device->CreateKernel(program, CM_KERNEL_FUNCTION(rotate), kernel));
  CmBuffer *buffer = nullptr;
  CHECK(device->CreateBuffer(n * sizeof(unsigned), buffer));
  CHECK(buffer->WriteSurface(reinterpret_cast<unsigned char *>(data.data()), nullptr));
  SurfaceIndex *index = nullptr;
  CHECK(buffer->GetIndex(index));
  CHECK(kernel->SetKernelArg(0, sizeof(SurfaceIndex), index));
  CmThreadGroupSpace *space = nullptr;
  CHECK(device->CreateThreadGroupSpace(threads, 1, groups, 1, space));
  CmTask *task = nullptr;
  CHECK(device->CreateTask(task));
  CHECK(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  CHECK(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  CHECK(queue->EnqueueWithGroup(task, event, space));
  CHECK(event->WaitForTaskFinished());
  std::vector<unsigned> out(n);
  CHECK(buffer->ReadSurface(reinterpret_cast<unsigned char *>(out.data()), event));
  int bad = 0;
  for (int g = 0; g < groups; ++g)
    for (int t = 0; t < threads; ++t)
      for (int l = 0; l < lanes; ++l)
        bad += out[(g * threads + t) * lanes + l] !=
               data[(g * threads + (t + 1) % threads) * lanes + l];
  CHECK(::DestroyCmDevice(device));
  std::printf("cm user headers: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
