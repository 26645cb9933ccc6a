// Distributed shared memory through dynamic shared memory, as the CUDA
// Programming Guide's cluster histogram writes it: each block of a cluster
// owns a slice of the bins in its `extern __shared__ int smem[]`, and every
// thread adds to the owner's slice through cluster.map_shared_rank(smem, rank)
// (and query_shared_rank(smem) names the block's own rank).
// The H100/H200 prints the same (tests/golden/cluster_dynamic_shared.txt).
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) clustered_histogram(const int* values, int n, int bins_per_block,
                                                              int* bins) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  for (int b = threadIdx.x; b < bins_per_block; b += blockDim.x) smem[b] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const int bin = values[i];
    int* owner = cluster.map_shared_rank(smem, bin / bins_per_block);
    atomicAdd(owner + bin % bins_per_block, 1);
  }
  cluster.sync();
  if (threadIdx.x == 0 && cluster.query_shared_rank(smem) != cluster.block_rank()) atomicAdd(&bins[0], 1000000);
  const int first = static_cast<int>(cluster.block_rank()) * bins_per_block;
  for (int b = threadIdx.x; b < bins_per_block; b += blockDim.x) atomicAdd(&bins[first + b], smem[b]);
}

int main() {
  const int n = 10000, bins_per_block = 8, bin_count = 2 * bins_per_block;
  int *values, *bins;
  cudaMallocManaged(&values, n * sizeof(int));
  cudaMallocManaged(&bins, bin_count * sizeof(int));
  int expected[bin_count] = {};
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 7) % bin_count;
    ++expected[values[i]];
  }
  for (int b = 0; b < bin_count; ++b) bins[b] = 0;
  clustered_histogram<<<4, 64, bins_per_block * sizeof(int)>>>(values, n, bins_per_block, bins);
  const cudaError_t status = cudaDeviceSynchronize();
  int wrong = 0;
  for (int b = 0; b < bin_count; ++b) wrong += bins[b] != expected[b];
  std::printf("launch: %s; bins 0..3: %d %d %d %d; %d of %d bins wrong\n", cudaGetErrorString(status), bins[0],
              bins[1], bins[2], bins[3], wrong, bin_count);
  std::printf("%s\n", status == cudaSuccess && wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(values);
  cudaFree(bins);
  return wrong == 0 ? 0 : 1;
}
