// A 3x3 box blur of a 32-bit RGBA image in C for Metal: the host program.
// The image lives in two 2-D surfaces (CM_SURFACE_FORMAT_A8R8G8B8); the
// kernel of blur_genx.cpp runs over a thread space with one thread per 6 x 6
// block of pixels. Every channel of every pixel is checked against a blur
// computed here, the image extended by its edge pixels.
//
// Build and run:
//   slmc++ --emit=program blur_genx.cpp -o blur_genx.isa
//   slmc++ blur.cpp -o blur
//   ./blur blur_genx.isa [width [height]]
#include "cm_example.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define BLOCK 6 // output pixels per thread in x and y, as in the kernel

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa [width [height]]\n", argv[0]);
    return 2;
  }
  const int width = argc > 2 ? std::atoi(argv[2]) : 250;
  const int height = argc > 3 ? std::atoi(argv[3]) : 130;
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    std::fprintf(stderr, "width and height must be in [1, 16384]\n");
    return 2;
  }

  // Packed rows of width pixels, 4 bytes each (B, G, R, A in memory).
  const size_t row = size_t(width) * 4;
  std::vector<unsigned char> image(row * height);
  uint32_t seed = 12345;
  for (unsigned char &b : image) {
    seed = seed * 1664525u + 1013904223u;
    b = (unsigned char)(seed >> 24);
  }

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(blur), kernel));

  CmSurface2D *src = nullptr, *dst = nullptr;
  cm_result_check(device->CreateSurface2D(width, height, CM_SURFACE_FORMAT_A8R8G8B8, src));
  cm_result_check(device->CreateSurface2D(width, height, CM_SURFACE_FORMAT_A8R8G8B8, dst));
  cm_result_check(src->WriteSurface(image.data(), nullptr));
  SurfaceIndex *src_index = nullptr, *dst_index = nullptr;
  cm_result_check(src->GetIndex(src_index));
  cm_result_check(dst->GetIndex(dst_index));
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), src_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), dst_index));

  // One thread per BLOCK x BLOCK pixels; the last column and row of blocks
  // may reach past the image.
  const unsigned threads_w = (width + BLOCK - 1) / BLOCK;
  const unsigned threads_h = (height + BLOCK - 1) / BLOCK;
  cm_result_check(kernel->SetThreadCount(threads_w * threads_h));
  CmThreadSpace *space = nullptr;
  cm_result_check(device->CreateThreadSpace(threads_w, threads_h, space));
  cm_result_check(space->SelectThreadDependencyPattern(CM_NONE_DEPENDENCY));

  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  cm_result_check(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  cm_result_check(queue->Enqueue(task, event, space));
  cm_result_check(event->WaitForTaskFinished());

  std::vector<unsigned char> result(image.size());
  cm_result_check(dst->ReadSurface(result.data(), event));

  int mismatches = 0;
  auto clamp = [](int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 4; ++c) {
        int sum = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            sum += image[size_t(clamp(y + dy, height)) * row +
                         size_t(clamp(x + dx, width)) * 4 + c];
        const int want = (sum + 4) / 9;
        const int got = result[size_t(y) * row + size_t(x) * 4 + c];
        if (got != want) {
          if (mismatches < 5)
            std::fprintf(stderr, "pixel (%d, %d) channel %d: got %d, expected %d\n",
                         x, y, c, got, want);
          ++mismatches;
        }
      }
  cm_result_check(::DestroyCmDevice(device));

  std::printf("blur %dx%d: %s (%d mismatches)\n", width, height,
              mismatches ? "FAILED" : "PASSED", mismatches);
  return mismatches ? 1 : 0;
}
