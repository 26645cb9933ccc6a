// 200 — libcu++'s pipeline: one warp of each block copies tiles of the
// input into shared memory while the other warps work on the tiles already
// there.
//
// cuda::pipeline_shared_state holds a ring of `stages` tiles and, for each,
// two barriers: "full" (its producers committed it) and "free" (its
// consumers released it). The producer warp acquires a free stage, copies
// a tile into it with cuda::memcpy_async and commits it; the consumer warps
// wait for the oldest full stage, read it, and release it. With two stages
// the copy of tile t+1 overlaps the work on tile t. A cuda::barrier then
// gathers the consumers' partial sums before one thread adds them up.
//
// The result: the sum of the squares of 0..n-1 (mod 2^32), checked on the host.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>

#include "../common/check.h"

namespace cg = cooperative_groups;

constexpr int tile = 256;        // elements a stage holds
constexpr int stages = 2;
constexpr int threads = 128;     // 3 consumer warps and 1 producer warp
constexpr int consumers = threads - 32;

__global__ void sum_of_squares(const unsigned int* in, int tiles_per_block, unsigned int* block_sums) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  __shared__ unsigned int ring[stages][tile];
  __shared__ unsigned int partial[consumers];
  __shared__ cuda::barrier<cuda::thread_scope_block> gathered;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x >= consumers;
  if (threadIdx.x == 0) init(&gathered, consumers);
  // make_pipeline synchronises the block: every thread sees the init above.
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);

  const unsigned int* mine = in + static_cast<size_t>(blockIdx.x) * tiles_per_block * tile;
  unsigned int sum = 0;
  for (int t = 0; t < tiles_per_block; ++t) {
    unsigned int* stage = ring[t % stages];
    if (producer) {
      pipe.producer_acquire();
      for (int i = threadIdx.x - consumers; i < tile; i += 32) {
        cuda::memcpy_async(&stage[i], &mine[t * tile + i], cuda::aligned_size_t<4>(sizeof(unsigned int)), pipe);
      }
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      for (int i = threadIdx.x; i < tile; i += consumers) sum += stage[i] * stage[i];
      pipe.consumer_release();
    }
  }
  if (!producer) {
    partial[threadIdx.x] = sum;
    gathered.arrive_and_wait();  // every consumer's partial sum is written
    if (threadIdx.x == 0) {
      unsigned int total = 0;
      for (int i = 0; i < consumers; ++i) total += partial[i];
      block_sums[blockIdx.x] = total;
    }
  }
}

int main() {
  const int blocks = 64, tiles_per_block = 16;
  const int n = blocks * tiles_per_block * tile;
  unsigned int* host = new unsigned int[n];
  for (int i = 0; i < n; ++i) host[i] = static_cast<unsigned int>(i);
  unsigned int *in, *block_sums;
  CHECK(cudaMalloc(&in, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&block_sums, blocks * sizeof(unsigned int)));
  CHECK(cudaMemcpy(in, host, n * sizeof(unsigned int), cudaMemcpyHostToDevice));
  sum_of_squares<<<blocks, threads>>>(in, tiles_per_block, block_sums);
  CHECK(cudaGetLastError());
  unsigned int sums[blocks];
  CHECK(cudaMemcpy(sums, block_sums, sizeof(sums), cudaMemcpyDeviceToHost));
  unsigned int total = 0, expected = 0;
  for (int b = 0; b < blocks; ++b) total += sums[b];
  for (int i = 0; i < n; ++i) expected += host[i] * host[i];
  printf("sum of squares of 0..%d (mod 2^32): %u, expected %u\n", n - 1, total, expected);
  CHECK(cudaFree(in));
  CHECK(cudaFree(block_sums));
  delete[] host;
  printf(total == expected ? "PASSED\n" : "FAILED\n");
  return total == expected ? 0 : 1;
}
