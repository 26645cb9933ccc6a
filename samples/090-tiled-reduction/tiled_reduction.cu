// 090 — a reduction with cooperative groups' tiles.
//
// Cooperative groups name sets of threads as objects. this_thread_block()
// is the block; tiled_partition<32>(block) cuts it into tiles of 32 threads
// (here, its warps), and cg::reduce(tile, v, cg::plus<int>()) sums v over
// the tile and gives every thread of it the result: the shuffles of sample
// 060, written for you. Each tile's first thread (thread_rank() == 0) puts
// the tile's sum in shared memory at meta_group_rank() (which tile it is),
// and after block.sync() the first tile reduces those partial sums in turn.
// Build: cusim-cc tiled_reduction.cu -o tiled_reduction (or nvcc).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

namespace cg = cooperative_groups;

const int threads_per_block = 256;  // 8 tiles of 32

__global__ void block_sums(const int* in, int n, int* out) {
  __shared__ int tile_sums[threads_per_block / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  int value = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) value += in[i];
  const int tile_sum = cg::reduce(tile, value, cg::plus<int>());
  if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = tile_sum;
  block.sync();  // every tile's sum is in shared memory

  if (tile.meta_group_rank() == 0) {
    const int partial = tile.thread_rank() < tile.meta_group_size() ? tile_sums[tile.thread_rank()] : 0;
    const int total = cg::reduce(tile, partial, cg::plus<int>());
    if (tile.thread_rank() == 0) out[blockIdx.x] = total;
  }
}

int main() {
  const int n = 1 << 18, blocks = 32;
  int *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, blocks * sizeof(int)));
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i % 7) - 3;
    expected += in[i];
  }
  block_sums<<<blocks, threads_per_block>>>(in, n, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long total = 0;
  for (int b = 0; b < blocks; ++b) total += out[b];
  const bool ok = total == expected;
  std::printf("tiled reduction of %d integers: %lld (expected %lld): %s\n", n, total, expected, ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
