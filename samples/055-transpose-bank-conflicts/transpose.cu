// 055 — matrix transpose through shared memory, and shared-memory bank conflicts.
//
// Transposing straight from global to global memory makes one of the two
// sides slow: if a warp reads a row (32 neighbouring floats, 128 bytes the
// memory delivers together), it writes a column (32 floats a whole row
// apart, each in a memory segment of its own). So each block of 32x32
// threads copies a 32x32 tile into shared memory reading rows of `in`, and
// after __syncthreads writes rows of `out`, reading the tile by columns:
// global memory is read and written a row at a time.
//
// Shared memory is split into 32 banks, 4 bytes wide: the 4-byte word at
// word address w lies in bank w % 32. A warp's access is served in one go
// when its 32 lanes touch 32 different banks (or the same word); lanes that
// touch different words of one bank take turns (a "32-way conflict" takes
// 32 turns). In float tile[32][32], element [r][c] is word r*32 + c, in
// bank c: a column's 32 elements all lie in one bank. The threads of a warp
// are the 32 of one threadIdx.y (threadIdx.x = 0..31):
//   tile[threadIdx.y][threadIdx.x] = ...   a row: banks 0..31, no conflict
//   ... = tile[threadIdx.x][threadIdx.y]   a column: bank threadIdx.y, 32 times
// One unused column, float tile[32][33], moves each row by one bank:
// element [r][c] is word r*33 + c, in bank (r + c) % 32, so a column's 32
// elements lie in 32 different banks. Both kernels give the same (correct)
// result; only the time their column reads take differs, on a GPU.
// The matrix here is 64 x 96, a whole number of tiles (a general
// transpose would check its bounds, as sample 020 does).
// Build: cusim-cc transpose.cu -o transpose (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int tile_dim = 32;  // a block of 32 x 32 threads moves one 32 x 32 tile

// in is rows x cols, out is cols x rows, both row-major. Block (bx, by) reads
// the tile at tile-row by, tile-column bx of `in`, and writes it transposed
// at tile-row bx, tile-column by of `out`.
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[tile_dim][tile_dim];
  const int in_col = blockIdx.x * tile_dim + threadIdx.x, in_row = blockIdx.y * tile_dim + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[in_row * cols + in_col];  // row of the tile: no conflict
  __syncthreads();  // the whole tile is written before any thread reads it
  const int out_col = blockIdx.y * tile_dim + threadIdx.x, out_row = blockIdx.x * tile_dim + threadIdx.y;
  out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y];  // column of the tile: 32-way conflict
}

// The same, with one column of padding.
__global__ void transpose_padded(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[tile_dim][tile_dim + 1];
  const int in_col = blockIdx.x * tile_dim + threadIdx.x, in_row = blockIdx.y * tile_dim + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[in_row * cols + in_col];  // row of the tile: no conflict
  __syncthreads();
  const int out_col = blockIdx.y * tile_dim + threadIdx.x, out_row = blockIdx.x * tile_dim + threadIdx.y;
  out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y];  // column of the tile: 32 banks, no conflict
}

// Compares out (cols x rows) with the transpose of in (rows x cols).
bool is_transpose(const float* in, const float* out, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (out[c * rows + r] != in[r * cols + c]) return false;
  return true;
}

int main() {
  const int rows = 2 * tile_dim, cols = 3 * tile_dim;
  const size_t bytes = size_t(rows) * cols * sizeof(float);
  float* in;
  float* out;
  CHECK(cudaMallocManaged(&in, bytes));
  CHECK(cudaMallocManaged(&out, bytes));
  for (int i = 0; i < rows * cols; ++i) in[i] = float(i);

  const dim3 grid(cols / tile_dim, rows / tile_dim), block(tile_dim, tile_dim);  // 3 x 2 blocks of 32 x 32 threads
  bool ok = true;
  for (int padded = 0; padded <= 1; ++padded) {
    CHECK(cudaMemset(out, 0, bytes));
    if (padded) transpose_padded<<<grid, block>>>(in, out, rows, cols);
    else transpose_naive<<<grid, block>>>(in, out, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const bool right = is_transpose(in, out, rows, cols);
    std::printf("transpose of a %d x %d matrix through float tile[32][%d]: %s\n", rows, cols, padded ? 33 : 32,
                right ? "correct" : "WRONG");
    ok = ok && right;
  }
  std::printf("both transposes: %s\n", ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
