// Transpose of an 8-bit image through shared local memory in C for Metal:
// the host program. The image and its transpose are R8_UINT 2-D surfaces;
// the kernel of image_transpose_genx.cpp runs one thread group of
// TILE / ROWS threads per TILE x TILE tile, over a thread-group space that
// covers the image. Every pixel is checked.
//
// Build and run:
//   slmc++ --emit=program image_transpose_genx.cpp -o image_transpose_genx.isa
//   slmc++ image_transpose.cpp -o image_transpose
//   ./image_transpose image_transpose_genx.isa [width [height]]
#include "cm_example.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define TILE 32 // as in the kernel
#define ROWS 8

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [width [height]]\n", argv[0]);
    return 2;
  }
  const int width = argc > 2 ? std::atoi(argv[2]) : 300;
  const int height = argc > 3 ? std::atoi(argv[3]) : 200;
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    std::fprintf(stderr, "width and height must be in [1, 16384]\n");
    return 2;
  }

  std::vector<unsigned char> image(size_t(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image[size_t(y) * width + x] = (unsigned char)(x * 7 + y * 13 + (x * y >> 3));

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(
      device->CreateKernel(program, CM_KERNEL_FUNCTION(image_transpose), kernel));

  CmSurface2D *in = nullptr, *out = nullptr;
  cm_result_check(device->CreateSurface2D(width, height, CM_SURFACE_FORMAT_R8_UINT, in));
  cm_result_check(device->CreateSurface2D(height, width, CM_SURFACE_FORMAT_R8_UINT, out));
  cm_result_check(in->WriteSurface(image.data(), nullptr));
  SurfaceIndex *in_index = nullptr, *out_index = nullptr;
  cm_result_check(in->GetIndex(in_index));
  cm_result_check(out->GetIndex(out_index));
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), in_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), out_index));

  CmThreadGroupSpace *space = nullptr;
  cm_result_check(device->CreateThreadGroupSpace(TILE / ROWS, 1, (width + TILE - 1) / TILE,
                                                 (height + TILE - 1) / TILE, space));
  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  cm_result_check(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  cm_result_check(queue->EnqueueWithGroup(task, event, space));

  std::vector<unsigned char> result(image.size());
  cm_result_check(out->ReadSurface(result.data(), event));
  int mismatches = 0;
  for (int y = 0; y < width; ++y) // the transpose: width rows of height pixels
    for (int x = 0; x < height; ++x) {
      const int want = image[size_t(x) * width + y];
      const int got = result[size_t(y) * height + x];
      if (got != want) {
        if (mismatches < 5)
          std::fprintf(stderr, "(%d, %d): got %d, expected %d\n", x, y, got, want);
        ++mismatches;
      }
    }
  cm_result_check(::DestroyCmDevice(device));

  std::printf("image transpose %dx%d: %s (%d mismatches)\n", width, height,
              mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
