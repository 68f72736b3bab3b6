// Tiled matrix multiply in C++ AMP: each 16x16 tile of C is computed by one
// tile of threads that stages 16x16 blocks of A and B in tile_static memory.
// Checks the result against a host computation.
#include <amp.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TS = 16;

void MatrixMultiplyTiled(std::vector<float> &vC, const std::vector<float> &vA,
                         const std::vector<float> &vB, int M, int N, int W) {
  array_view<const float, 2> a(M, W, vA);
  array_view<const float, 2> b(W, N, vB);
  array_view<float, 2> c(M, N, vC);
  c.discard_data();

  parallel_for_each(c.extent.tile<TS, TS>(),
                    [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    int row = t_idx.local[0];
    int col = t_idx.local[1];
    float sum = 0.0f;
    for (int i = 0; i < W; i += TS) {
      tile_static float locA[TS][TS];
      tile_static float locB[TS][TS];
      locA[row][col] = a(t_idx.global[0], col + i);
      locB[row][col] = b(row + i, t_idx.global[1]);
      t_idx.barrier.wait();
      for (int k = 0; k < TS; k++)
        sum += locA[row][k] * locB[k][col];
      t_idx.barrier.wait();
    }
    c[t_idx.global] = sum;
  });
  c.synchronize();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 256;
  if (n <= 0 || n % TS != 0) {
    std::fprintf(stderr, "matmul: size must be a positive multiple of %d\n", TS);
    return 2;
  }
  const int M = n, N = n, W = n;
  std::vector<float> A(M * W), B(W * N), C(M * N, 0.0f);
  for (int i = 0; i < M * W; ++i) A[i] = float((i * 7) % 13) - 6.0f;
  for (int i = 0; i < W * N; ++i) B[i] = float((i * 5) % 11) - 5.0f;

  try {
    MatrixMultiplyTiled(C, A, B, M, N, W);
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "matmul: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float ref = 0.0f;
      for (int k = 0; k < W; ++k) ref += A[r * W + k] * B[k * N + c];
      if (std::fabs(ref - C[r * N + c]) > 1e-3f * (1.0f + std::fabs(ref))) {
        if (errors < 5)
          std::printf("mismatch at (%d,%d): got %f, expected %f\n", r, c,
                      C[r * N + c], ref);
        ++errors;
      }
    }
  std::printf("matmul %dx%d: %s (%d mismatches)\n", n, n,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
