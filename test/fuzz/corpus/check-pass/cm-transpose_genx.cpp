2// Matrix transpose through shared local memory in C for Metal: the kernel.
//
// A thread group of TILE threads transposes one TILE x TILE tile of a
// row-major `height` x `width` matrix of 32-bit elements: thread t reads row
// t of the tile with a block read and scatters it into SLM with
// cm_slm_write; after a barrier it gathers column t of the tile from SLM with
// cm_slm_read, which is row t of the transposed tile, and writes it with one
// block write. The SLM tile's rows are TILE + 1 elements apart, so that a
// column's elements fall in different SLM banks.
//
// Build: slmc++ --emit=program transpose_genx.cpp -o transpose_genx.isa
#include <cm/cm.h>

#define TILE 16
#define PITCH (TILE + 1) // SLM row pitch, in elements

extern "C" _GENX_MAIN_ void transpose(SurfaceIndex in, SurfaceIndex out, int width,
                                      int height) {
  cm_slm_init(TILE * PITCH * sizeof(uint));
  uint tile = cm_slm_alloc(TILE * PITCH * sizeof(uint));

  const uint t = cm_local_id(0);
  const uint tile_x = cm_group_id(0) * TILE; // first column of the tile in `in`
  const uint tile_y = cm_group_id(1) * TILE; // first row of the tile in `in`

  vector<uint, TILE> across; // 0, 1, ..., TILE - 1
  for (int i = 0; i < TILE; ++i)
    across(i) = i;

  // Row t of the tile into SLM row t.
  vector<uint, TILE> row;
  read(in, ((tile_y + t) * width + tile_x) * sizeof(uint), row);
  cm_slm_write(tile, across + t * PITCH, row);

  cm_barrier();

  // Column t of the tile from SLM: row t of the transposed tile, which
  // starts at row tile_x + t, column tile_y of `out` (height columns wide).
  vector<uint, TILE> column;
  cm_slm_read(tile, across * PITCH + t, column);
  write(out, ((tile_x + t) * height + tile_y) * sizeof(uint), column);
}
