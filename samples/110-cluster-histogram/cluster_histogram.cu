// 110 — a histogram in distributed shared memory, across a thread-block cluster.
//
// On sm_90 (H100) blocks can be grouped into clusters whose blocks run at
// the same time, each on its own multiprocessor, and a block can read and
// write the shared memory of the other blocks of its cluster. Here a cluster
// of 4 blocks keeps one histogram of 1024 bins, spread over the 4 blocks'
// shared memory: 256 bins each. A thread that counts value v updates bin v
// in the block that owns it: cluster.map_shared_rank(local_bins, owner)
// turns the address of this block's bins into the same array of block
// `owner`, and atomicAdd works through it.
// Two cluster.sync() calls matter: after zeroing (no block may count into
// bins another block has not cleared yet), and before the end (no block may
// exit, freeing its shared memory, while others still count into it).
// Build: cusim-cc -arch=sm_90 cluster_histogram.cu -o cluster_histogram (or nvcc).
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

namespace cg = cooperative_groups;

const int cluster_size = 4;
const int bins = 1024;
const int bins_per_block = bins / cluster_size;

__global__ void __cluster_dims__(cluster_size, 1, 1) histogram(const int* data, int n, unsigned int* global_bins) {
  __shared__ unsigned int local_bins[bins_per_block];
  cg::cluster_group cluster = cg::this_cluster();
  for (int b = threadIdx.x; b < bins_per_block; b += blockDim.x) local_bins[b] = 0;
  cluster.sync();  // every block's bins are zero before anyone counts

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const int value = data[i];
    unsigned int* owner_bins = cluster.map_shared_rank(local_bins, value / bins_per_block);
    atomicAdd(&owner_bins[value % bins_per_block], 1u);
  }
  cluster.sync();  // every count is in before any block copies its bins out and exits

  const unsigned int first = cluster.block_rank() * bins_per_block;
  for (int b = threadIdx.x; b < bins_per_block; b += blockDim.x) atomicAdd(&global_bins[first + b], local_bins[b]);
}

int main() {
  const int n = 1 << 20;
  int* data;
  unsigned int* counts;
  CHECK(cudaMallocManaged(&data, n * sizeof(int)));
  CHECK(cudaMallocManaged(&counts, bins * sizeof(unsigned int)));
  unsigned int expected[bins] = {};
  for (int i = 0; i < n; ++i) {
    data[i] = int((i * 2654435761u) >> 22);  // 0..1023
    ++expected[data[i]];
  }
  CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned int)));
  histogram<<<8 * cluster_size, 256>>>(data, n, counts);  // 8 clusters of 4 blocks
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += counts[b] != expected[b];
  std::printf("cluster histogram of %d values into %d bins over %d blocks' shared memory: %d bins wrong: %s\n", n,
              bins, cluster_size, wrong, wrong == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(data));
  CHECK(cudaFree(counts));
  return wrong == 0 ? 0 : 1;
}
