// 020 — 2D matrix add over a 2D grid of 16x16 blocks.
//
// Blocks and grids can be two- (or three-) dimensional. Each thread finds its
// element from blockIdx, blockDim and threadIdx in x (columns) and y (rows).
// The matrix size is not a multiple of 16, so the blocks on the right and
// bottom edges have threads with no element: they must check the bounds.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

__global__ void matrix_add(const float* a, const float* b, float* c, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    int i = row * cols + col;  // row-major
    c[i] = a[i] + b[i];
  }
}

int main() {
  const int rows = 500, cols = 300;
  const size_t bytes = size_t(rows) * cols * sizeof(float);
  float* ha = (float*)std::malloc(bytes);
  float* hb = (float*)std::malloc(bytes);
  float* hc = (float*)std::malloc(bytes);
  for (int i = 0; i < rows * cols; ++i) {
    ha[i] = float(i % 97);
    hb[i] = float(i % 89) * 0.5f;
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));

  dim3 block(16, 16);                                      // 256 threads per block
  dim3 grid((cols + block.x - 1) / block.x,                // enough blocks to cover
            (rows + block.y - 1) / block.y);               // every element
  matrix_add<<<grid, block>>>(da, db, dc, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < rows * cols; ++i) wrong += hc[i] != ha[i] + hb[i];
  std::printf("matrix add %dx%d on a %ux%u grid of %ux%u blocks: %s\n", rows, cols, grid.x, grid.y, block.x,
              block.y, wrong ? "FAILED" : "PASSED");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::free(ha);
  std::free(hb);
  std::free(hc);
  return wrong ? 1 : 0;
}
