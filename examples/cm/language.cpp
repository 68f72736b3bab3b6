// A tour of the C for Metal kernel language as slmc implements it: the host
// program. It runs the kernel of language_genx.cpp as one thread group of
// 16 threads and compares every slot it wrote with values computed here.
//
// Build and run:
//   slmc++ --emit=program language_genx.cpp -o language_genx.isa
//   slmc++ language.cpp -o language
//   ./language language_genx.isa
#include "cm_example.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define GROUP 16
#define SLOT 16
#define SLOTS 16
#define IN_ELEMENTS 40
#define OUT_ELEMENTS (15 * SLOT + 8) // slot 15 is cut in half

static uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// What the kernel should write, slot by slot.
static std::vector<uint32_t> expected(const std::vector<uint32_t> &in) {
  std::vector<uint32_t> e(SLOTS * SLOT, 0);
  uint32_t *s;
  // 0: select with stride 4 from 1.
  s = &e[0 * SLOT];
  for (int i = 0; i < 16; ++i)
    s[i] = i % 4 == 1 ? 100 : i;
  // 1: float bits, then the bytes of 0x04030201.
  s = &e[1 * SLOT];
  s[0] = float_bits(1.0f), s[1] = float_bits(-2.0f), s[2] = float_bits(0.5f),
  s[3] = float_bits(3.0f);
  s[4] = 1, s[5] = 2, s[6] = 3, s[7] = 4;
  // 2: two blocks of four from 1 and 9, two apart; twice.
  s = &e[2 * SLOT];
  for (int i = 0; i < 16; ++i)
    s[i] = 1 + 8 * ((i % 8) / 4) + 2 * (i % 4);
  // 3: merged, then reversed.
  s = &e[3 * SLOT];
  for (int i = 0; i < 16; ++i) {
    int j = 15 - i;
    s[i] = j > 7 ? 10 * j : j;
  }
  // 4: transpose, +1000 on rows and columns 0 and 2, (3,3) = 7.
  s = &e[4 * SLOT];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      s[4 * r + c] = 4 * c + r + ((r % 2 == 0 && c % 2 == 0) ? 1000 : 0);
  s[15] = 7;
  // 5: reductions.
  int a[8], b[8];
  for (int i = 0; i < 8; ++i)
    a[i] = i, b[i] = (2 * i + 1) - 8;
  s = &e[5 * SLOT];
  int sum = 0, prod = 1, mx = b[0], mn = b[0];
  for (int i = 0; i < 8; ++i) {
    sum += a[i];
    mx = b[i] > mx ? b[i] : mx;
    mn = b[i] < mn ? b[i] : mn;
  }
  for (int i = 1; i < 5; ++i)
    prod *= a[i];
  s[0] = sum, s[1] = prod, s[2] = mx, s[3] = uint32_t(mn);
  for (int g = 0; g < 8; g += 4) {
    int d = 0;
    for (int k = 0; k < 4; ++k)
      d += a[g + k] * b[g + k];
    for (int k = 0; k < 4; ++k)
      s[4 + g + k] = uint32_t(d);
  }
  for (int i = 0; i < 4; ++i)
    s[12 + i] = uint32_t(a[2 * i] > b[2 * i] ? a[2 * i] : b[2 * i]);
  // 6: saturated to uchar, absolute values.
  s = &e[6 * SLOT];
  for (int i = 0; i < 8; ++i) {
    int big = 60 * i - 100;
    s[i] = big < 0 ? 0 : big > 255 ? 255 : big;
    s[8 + i] = big < 0 ? -big : big;
  }
  // 7: math (checked to +-1).
  s = &e[7 * SLOT];
  s[0] = 2000, s[1] = 250, s[2] = 8000, s[3] = 3000, s[4] = 1024, s[5] = 250, s[6] = 1000,
  s[7] = 0;
  s[8] = 4, s[9] = 16, s[10] = 3, s[11] = 8, s[12] = 2;
  // 8: the last 8 elements of `in`, then zeros.
  s = &e[8 * SLOT];
  for (int i = 0; i < 8; ++i)
    s[i] = in[IN_ELEMENTS - 8 + i];
  // 9: gathered in[2 + 2k]; scattered +1; a scalar.
  s = &e[9 * SLOT];
  for (int k = 0; k < 8; ++k)
    s[k] = in[2 + 2 * k], s[8 + k] = in[2 + 2 * k] + 1;
  s[15] = 4242;
  // 11: in[1..4] read DWALIGNED; SLM atomic counters.
  s = &e[11 * SLOT];
  for (int i = 0; i < 4; ++i)
    s[i] = in[1 + i];
  s[8] = 8 * GROUP;                       // INC, 8 lanes per thread
  s[9] = 8 * (GROUP * (GROUP + 1) / 2);   // ADD me + 1
  s[10] = 3 * (GROUP - 1);                // MAX me * 3
  s[11] = float_bits(0.25f * 8 * GROUP);  // FADD 0.25
  // 10: FMAX of me * 1.5; CMPXCHG 0 -> 6 by thread 5, which saw 0.
  s = &e[10 * SLOT];
  s[0] = float_bits(1.5f * (GROUP - 1));
  s[1] = 6;
  s[2] = 77;
  // 12: channels G then A of the 8 groups.
  s = &e[12 * SLOT];
  for (int i = 0; i < 8; ++i)
    s[i] = 200 + i;
  // 13: each thread's neighbour's sum.
  s = &e[13 * SLOT];
  for (int me = 0; me < GROUP; ++me)
    s[me] = 28 + 800 * ((me + 1) % GROUP);
  // 14: SLM offsets (the second buffer comes back after cm_slm_free);
  // global atomics.
  s = &e[14 * SLOT];
  s[0] = 0, s[1] = GROUP * 8 * 4, s[2] = GROUP * 8 * 4;
  s[4] = 8 * GROUP, s[5] = 8 * (GROUP * (GROUP - 1) / 2);
  // 15: the first half of the edge write.
  s = &e[15 * SLOT];
  for (int i = 0; i < 8; ++i)
    s[i] = 500 + i;
  e.resize(OUT_ELEMENTS);
  return e;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s program.isa\n", argv[0]);
    return 2;
  }
  std::vector<uint32_t> in(IN_ELEMENTS);
  for (int i = 0; i < IN_ELEMENTS; ++i)
    in[i] = 3 * i + 1;

  CmDevice *device = nullptr;
  unsigned int version = 0;
  cm_result_check(::CreateCmDevice(device, version));
  std::string isa_code = load_file(argv[1]);
  CmProgram *program = nullptr;
  cm_result_check(device->LoadProgram(const_cast<char *>(isa_code.data()),
                                      unsigned(isa_code.size()), program));
  CmKernel *kernel = nullptr;
  cm_result_check(device->CreateKernel(program, CM_KERNEL_FUNCTION(language), kernel));

  CmBuffer *out = nullptr, *input = nullptr;
  cm_result_check(device->CreateBuffer(OUT_ELEMENTS * 4, out));
  cm_result_check(device->CreateBuffer(IN_ELEMENTS * 4, input));
  cm_result_check(out->InitSurface(0, nullptr));
  cm_result_check(input->WriteSurface(reinterpret_cast<unsigned char *>(in.data()), nullptr));
  SurfaceIndex *out_index = nullptr, *in_index = nullptr;
  cm_result_check(out->GetIndex(out_index));
  cm_result_check(input->GetIndex(in_index));
  const int n = IN_ELEMENTS;
  cm_result_check(kernel->SetKernelArg(0, sizeof(SurfaceIndex), out_index));
  cm_result_check(kernel->SetKernelArg(1, sizeof(SurfaceIndex), in_index));
  cm_result_check(kernel->SetKernelArg(2, sizeof(int), &n));

  CmThreadGroupSpace *space = nullptr;
  cm_result_check(device->CreateThreadGroupSpace(GROUP, 1, 1, 1, space));
  CmTask *task = nullptr;
  cm_result_check(device->CreateTask(task));
  cm_result_check(task->AddKernel(kernel));
  CmQueue *queue = nullptr;
  cm_result_check(device->CreateQueue(queue));
  CmEvent *event = nullptr;
  cm_result_check(queue->EnqueueWithGroup(task, event, space));
  cm_result_check(event->WaitForTaskFinished());

  std::vector<uint32_t> got(OUT_ELEMENTS);
  cm_result_check(out->ReadSurface(reinterpret_cast<unsigned char *>(got.data()), event));
  std::vector<uint32_t> want = expected(in);
  int bad_slots = 0;
  for (int slot = 0; slot < SLOTS; ++slot) {
    bool ok = true;
    for (int i = slot * SLOT; i < (slot + 1) * SLOT && i < OUT_ELEMENTS; ++i) {
      uint32_t g = got[i], w = want[i];
      bool close = slot == 7 && (g == w + 1 || g + 1 == w); // approximate math
      ok &= g == w || close;
    }
    if (!ok) {
      ++bad_slots;
      std::fprintf(stderr, "slot %d:\n  got     ", slot);
      for (int i = slot * SLOT; i < (slot + 1) * SLOT && i < OUT_ELEMENTS; ++i)
        std::fprintf(stderr, " %u", got[i]);
      std::fprintf(stderr, "\n  expected");
      for (int i = slot * SLOT; i < (slot + 1) * SLOT && i < OUT_ELEMENTS; ++i)
        std::fprintf(stderr, " %u", want[i]);
      std::fprintf(stderr, "\n");
    }
  }
  cm_result_check(::DestroyCmDevice(device));
  std::printf("language tour, %d checks: %s (%d failed)\n", SLOTS,
              bad_slots ? "FAILED" : "PASSED", bad_slots);
  return bad_slots ? 1 : 0;
}
