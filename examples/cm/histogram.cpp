// 256-bin histogram of bytes in C for Metal: the host program. It fills a
// buffer with random bytes (skewed, so that some bins are hot and the
// atomics really contend), runs the kernel of histogram_genx.cpp over
// thread groups and compares the counts with the host's.
//
// Build and run:
//   slmc++ --emit=program histogram_genx.cpp -o histogram_genx.isa
//   slmc++ histogram.cpp -o histogram
//   ./histogram histogram_genx.isa [bytes [threads per group]]
#include "cm_example.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define BINS 256
#define BYTES_PER_THREAD 1024 // as in the kernel

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [bytes [threads per group]]\n", argv[0]);
    return 2;
  }
  const int size = argc > 2 ? std::atoi(argv[2]) : 1000003;
  int group_size = argc > 3 ? std::atoi(argv[3]) : 64;
  if (size <= 0 || group_size <= 0) {
    std::fprintf(stderr, "sizes must be positive\n");
    return 2;
  }

  // Input: random bytes, a third of them in four hot bins.
  std::vector<unsigned char> data(size);
  uint32_t state = 2024;
  for (int i = 0; i < size; ++i) {
    state = state * 1664525u + 1013904223u;
    uint32_t r = state >> 8;
    data[i] = (r % 3 == 0) ? (unsigned char)(7 + 60 * ((r >> 4) % 4)) : (unsigned char)r;
  }
  std::vector<uint32_t> expected(BINS, 0);
  for (unsigned char b : data)
    ++expected[b];

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(histogram), kernel));

  CmBuffer *input = nullptr, *output = nullptr;
  cm_result_check(device->CreateBuffer(unsigned(size), input));
  cm_result_check(device->CreateBuffer(BINS * sizeof(uint32_t), output));
  cm_result_check(input->WriteSurface(data.data(), nullptr));
  cm_result_check(output->InitSurface(0, nullptr));
  SurfaceIndex *input_index = nullptr, *output_index = nullptr;
  cm_result_check(input->GetIndex(input_index));
  cm_result_check(output->GetIndex(output_index));
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), input_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), output_index));
  cm_result_check(kernel->SetKernelArg(2, sizeof(int), &size));

  // Enough threads for every byte, in groups no larger than the device
  // allows.
  size_t cap_size = 4;
  int max_group = 0;
  cm_result_check(device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP, cap_size,
                                  &max_group));
  if (group_size > max_group)
    group_size = max_group;
  const int threads = (size + BYTES_PER_THREAD - 1) / BYTES_PER_THREAD;
  const int groups = (threads + group_size - 1) / group_size;
  CmThreadGroupSpace *space = nullptr;
  cm_result_check(device->CreateThreadGroupSpace(group_size, 1, groups, 1, space));

  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  cm_result_check(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  cm_result_check(queue->EnqueueWithGroup(task, event, space));
  cm_result_check(event->WaitForTaskFinished());

  std::vector<uint32_t> counts(BINS);
  cm_result_check(output->ReadSurface(reinterpret_cast<unsigned char *>(counts.data()),
                                      event));
  int mismatches = 0;
  for (int b = 0; b < BINS; ++b)
    if (counts[b] != expected[b]) {
      if (mismatches < 5)
        std::fprintf(stderr, "bin %d: got %u, expected %u\n", b, counts[b], expected[b]);
      ++mismatches;
    }
  cm_result_check(::DestroyCmDevice(device));

  std::printf("histogram of %d bytes, %d thread groups of %d threads: %s (%d mismatches)\n",
              size, groups, group_size, mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
