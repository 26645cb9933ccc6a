// 100 — a two-phase reduction in one kernel, with grid.sync().
//
// Without it, a reduction over the whole grid needs two launches: one where
// each block writes its partial sum, and a second that adds them, since a
// kernel's blocks cannot wait for each other (they need not all be running
// at once). A cooperative launch promises that they are: the grid is no
// larger than what the GPU holds at once, which the occupancy API tells
// (blocks per multiprocessor x multiprocessors), and cudaLaunchCooperativeKernel
// refuses a larger one with cudaErrorCooperativeLaunchTooLarge. Then
// cg::this_grid().sync() waits for every thread of the grid, so after it
// block 0 can add the partial sums the other blocks wrote before it.
// Build: cusim-cc grid_reduction.cu -o grid_reduction (or nvcc).
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

namespace cg = cooperative_groups;

const int threads_per_block = 128;

__global__ void reduce_in_one_kernel(const float* in, int n, float* partials, float* total) {
  __shared__ float cache[threads_per_block];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();

  // Phase 1: each block sums its grid-stride share into partials[block].
  float sum = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.num_threads()) sum += in[i];
  cache[block.thread_rank()] = sum;
  block.sync();
  for (int half = threads_per_block / 2; half > 0; half /= 2) {
    if (block.thread_rank() < half) cache[block.thread_rank()] += cache[block.thread_rank() + half];
    block.sync();
  }
  if (block.thread_rank() == 0) partials[grid.block_rank()] = cache[0];

  grid.sync();  // every block's partial sum is written

  // Phase 2: block 0 adds them.
  if (grid.block_rank() == 0 && block.thread_rank() == 0) {
    float all = 0.0f;
    for (unsigned long long b = 0; b < grid.num_blocks(); ++b) all += partials[b];
    *total = all;
  }
}

int main() {
  const int n = 1 << 20;
  int blocks_per_sm = 0, sms = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reduce_in_one_kernel, threads_per_block, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // One block per multiprocessor is plenty here, and well within the limit.
  const int blocks = sms;
  float *in, *partials, *total;
  CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CHECK(cudaMallocManaged(&partials, blocks * sizeof(float)));
  CHECK(cudaMallocManaged(&total, sizeof(float)));
  for (int i = 0; i < n; ++i) in[i] = float(i % 4);  // sums exactly in float
  int count = n;
  void* args[] = {&in, &count, &partials, &total};
  CHECK(cudaLaunchCooperativeKernel((void*)reduce_in_one_kernel, dim3(blocks), dim3(threads_per_block), args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  const float expected = 1.5f * n;
  const bool ok = *total == expected;
  std::printf("grid of %d blocks (up to %d per multiprocessor fit): sum %.1f (expected %.1f): %s\n", blocks,
              blocks_per_sm, *total, expected, ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(partials));
  CHECK(cudaFree(total));
  return ok ? 0 : 1;
}
