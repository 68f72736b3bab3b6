// Matrix transpose through shared local memory in C for Metal: the host
// program. It transposes a height x width matrix of 32-bit values with the
// kernel of transpose_genx.cpp, one thread group of TILE threads per
// TILE x TILE tile, and checks every element.
//
// Build and run:
//   slmc++ --emit=program transpose_genx.cpp -o transpose_genx.isa
//   slmc++ transpose.cpp -o transpose
//   ./transpose transpose_genx.isa [width [height]]
#include "cm_example.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define TILE 16 // as in the kernel

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [width [height]]\n", argv[0]);
    return 2;
  }
  const int width = argc > 2 ? std::atoi(argv[2]) : 256;
  const int height = argc > 3 ? std::atoi(argv[3]) : width;
  if (width <= 0 || height <= 0 || width % TILE || height % TILE) {
    std::fprintf(stderr, "width and height must be positive multiples of %d\n", TILE);
    return 2;
  }

  std::vector<uint32_t> matrix(size_t(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      matrix[size_t(y) * width + x] = uint32_t(y) << 16 | uint32_t(x);

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(transpose), kernel));

  const unsigned bytes = unsigned(matrix.size() * sizeof(uint32_t));
  CmBuffer *in = nullptr, *out = nullptr;
  cm_result_check(device->CreateBuffer(bytes, in));
  cm_result_check(device->CreateBuffer(bytes, out));
  cm_result_check(in->WriteSurface(reinterpret_cast<unsigned char *>(matrix.data()), nullptr));
  SurfaceIndex *in_index = nullptr, *out_index = nullptr;
  cm_result_check(in->GetIndex(in_index));
  cm_result_check(out->GetIndex(out_index));
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), in_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), out_index));
  cm_result_check(kernel->SetKernelArg(2, sizeof(int), &width));
  cm_result_check(kernel->SetKernelArg(3, sizeof(int), &height));

  // One group of TILE threads per tile; the group space covers the matrix.
  CmThreadGroupSpace *space = nullptr;
  cm_result_check(device->CreateThreadGroupSpace(TILE, 1, width / TILE, height / TILE,
                                                 space));
  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  cm_result_check(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  cm_result_check(queue->EnqueueWithGroup(task, event, space));
  cm_result_check(event->WaitForTaskFinished());

  std::vector<uint32_t> result(matrix.size());
  cm_result_check(out->ReadSurface(reinterpret_cast<unsigned char *>(result.data()), event));
  int mismatches = 0;
  for (int y = 0; y < width; ++y) // result is width rows of height elements
    for (int x = 0; x < height; ++x) {
      uint32_t want = matrix[size_t(x) * width + y];
      uint32_t got = result[size_t(y) * height + x];
      if (got != want) {
        if (mismatches < 5)
          std::fprintf(stderr, "(%d, %d): got %08x, expected %08x\n", y, x, got, want);
        ++mismatches;
      }
    }
  cm_result_check(::DestroyCmDevice(device));

  std::printf("transpose %dx%d: %s (%d mismatches)\n", height, width,
              mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
