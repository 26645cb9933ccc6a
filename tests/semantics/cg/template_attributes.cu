// A kernel template's __cluster_dims__ and __launch_bounds__ hold for each
// instance, computed from its template arguments, as nvcc compiles them:
// clustered<N> runs in clusters of two blocks (a grid of three is refused,
// cudaErrorInvalidClusterSize as on the H100),
// and bounded<N>'s limit is N threads, including where the bound is written
// with a `>` in it. Plain CUDA: nvcc builds it (sm_90 for the clusters).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <int Scale>
__global__ void __cluster_dims__(2, 1, 1) clustered(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<int>(cg::this_cluster().num_blocks()) * Scale;
}

template <int Threads>
__global__ void __launch_bounds__(Threads > 256 ? 256 : Threads) bounded(int* out) { out[threadIdx.x] = Threads; }

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 1024 * sizeof(int));
  clustered<10><<<4, 32>>>(out);
  const cudaError_t in_pairs = cudaDeviceSynchronize();
  const bool pairs = out[0] == 20 && out[1] == 20 && out[2] == 20 && out[3] == 20;
  const int cluster_blocks = out[0] / 10;
  clustered<10><<<3, 32>>>(out);
  const cudaError_t odd_grid = cudaGetLastError();
  cudaDeviceSynchronize();
  bounded<512><<<1, 256>>>(out);
  const cudaError_t at_bound = cudaGetLastError();
  bounded<512><<<1, 512>>>(out);
  const cudaError_t beyond_bound = cudaGetLastError();
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, bounded<64>);
  cudaDeviceSynchronize();
  std::printf("clusters of %d blocks: %s, %s; a grid of 3: %s\n", cluster_blocks, cudaGetErrorName(in_pairs),
              pairs ? "each block saw its cluster" : "WRONG", cudaGetErrorName(odd_grid));
  std::printf("bounded<512>: 256 threads %s, 512 threads %s; bounded<64> maxThreadsPerBlock %d\n",
              cudaGetErrorName(at_bound), cudaGetErrorName(beyond_bound), attributes.maxThreadsPerBlock);
  const bool passed = in_pairs == cudaSuccess && pairs && odd_grid == cudaErrorInvalidClusterSize &&
                      at_bound == cudaSuccess && beyond_bound == cudaErrorInvalidValue &&
                      attributes.maxThreadsPerBlock == 64;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
