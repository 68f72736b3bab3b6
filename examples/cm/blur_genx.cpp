// A 3x3 box blur of a 32-bit RGBA image in C for Metal: the kernel.
//
// Each thread of the thread space computes a block of 6 x 6 pixels: it
// reads the 8 x 8 pixels around them (8 rows of 32 bytes, one pixel of halo
// on every side) with one media block read, adds up the nine neighbours of
// each output byte (the same channel of the 3 x 3 pixels around it) with row
// selects of that block, and writes the rounded averages back with one
// media block write. The halo of the image's border blocks lies outside the
// surface: the read gives the nearest edge pixel there, so the border is
// blurred as if the image were extended by its edge. The blocks of the last
// column and row reach past the image; the write drops those pixels.
//
// Build: slmc++ --emit=program blur_genx.cpp -o blur_genx.isa
#include <cm/cm.h>

#define BLOCK 6  // pixels of output per thread, in x and y
#define PIXEL 4  // bytes per pixel (A8R8G8B8)

extern "C" _GENX_MAIN_ void blur(SurfaceIndex src, SurfaceIndex dst) {
  const int x = get_thread_origin_x() * BLOCK * PIXEL; // bytes
  const int y = get_thread_origin_y() * BLOCK;         // rows

  matrix<uchar, 8, 32> in;
  read(src, x - PIXEL, y - 1, in);

  // Row by row: the three rows of the window, each shifted by -1, 0 and +1
  // pixel, summed; then (sum + 4) / 9, each channel on its own (the result
  // fits a byte).
  matrix<uchar, BLOCK, BLOCK * PIXEL> out;
  for (int r = 0; r < BLOCK; ++r) {
    vector<ushort, BLOCK * PIXEL> sum = 0;
    for (int dy = 0; dy < 3; ++dy)
      sum += in.row(r + dy).select<BLOCK * PIXEL, 1>(0) +
             in.row(r + dy).select<BLOCK * PIXEL, 1>(PIXEL) +
             in.row(r + dy).select<BLOCK * PIXEL, 1>(2 * PIXEL);
    out.row(r) = cm_add<uchar>((sum + 4) / 9, 0, SAT);
  }
  write(dst, x, y, out);
}
