// Transpose of an 8-bit image through shared local memory in C for Metal:
// the kernel.
//
// A thread group of TILE / ROWS threads transposes one TILE x TILE tile of
// an R8_UINT 2-D surface. Each thread loads ROWS rows of the tile with one
// media block read and stores them in the group's SLM copy of the tile;
// after a barrier each thread gathers ROWS columns of the tile from SLM
// (rows of the transposed tile, written by other threads) and writes them
// with one media block write at the mirrored position. Tiles on the right
// and bottom edges reach past the image: the reads there give edge pixels,
// which land past the edges of the transposed image, where the writes are
// dropped. So any image size works.
//
// Build: slmc++ --emit=program image_transpose_genx.cpp -o image_transpose_genx.isa
#include <cm/cm.h>

#define TILE 32 // pixels (bytes) per tile side
#define ROWS 8  // tile rows per thread

extern "C" _GENX_MAIN_ void image_transpose(SurfaceIndex in, SurfaceIndex out) {
  cm_slm_init(TILE * TILE);
  uint tile = cm_slm_alloc(TILE * TILE);

  const int t = cm_local_id(0);
  const int tile_x = cm_group_id(0) * TILE; // first column of the tile in `in`
  const int tile_y = cm_group_id(1) * TILE; // first row of the tile in `in`

  // Load: rows t * ROWS ... of the tile, into SLM row by row.
  matrix<uchar, ROWS, TILE> block;
  read(in, tile_x, tile_y + t * ROWS, block);
  for (int r = 0; r < ROWS; ++r)
    cm_slm_block_write(tile, (t * ROWS + r) * TILE, block.row(r));

  cm_barrier();

  // Columns t * ROWS ... of the tile are rows t * ROWS ... of the
  // transposed tile, which starts at row tile_x, column tile_y of `out`.
  vector<ushort, TILE> down; // offsets of a column's bytes
  for (int i = 0; i < TILE; ++i)
    down(i) = i * TILE;
  matrix<uchar, ROWS, TILE> flipped;
  for (int r = 0; r < ROWS; ++r) {
    vector<uchar, TILE> column;
    cm_slm_read(tile, down + (t * ROWS + r), column);
    flipped.row(r) = column;
  }
  write(out, tile_y, tile_x + t * ROWS, flipped);
}
