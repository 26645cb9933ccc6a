// Each thread reads blockIdx, blockDim, gridDim and threadIdx again after
// every kind of wait (a block barrier, a warp collective, a spin on the
// clock that lets other warps and blocks run, grid.sync()) and finds its
// own values, while the other blocks of the grid, resident on the same
// worker, ran in between. cusim declares the first three const to device
// code, as CUDA does (include/cusim/detail/builtins.hpp), so the compiler
// may keep them in registers across these calls: this checks that what it
// keeps is still right. Plain CUDA: nvcc builds it too.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

struct seen {
  unsigned int values[12];
};

__device__ seen read_builtins() {
  return seen{{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, blockDim.x, blockDim.y,
               blockDim.z, gridDim.x, gridDim.y, gridDim.z}};
}

__device__ bool same(const seen& a, const seen& b) {
  for (int i = 0; i < 12; ++i) {
    if (a.values[i] != b.values[i]) return false;
  }
  return true;
}

__global__ void check_builtins(int* wrong, unsigned int* ids) {
  const seen before = read_builtins();
  const unsigned int block = blockIdx.x + gridDim.x * blockIdx.y;
  const unsigned int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int mistakes = 0;
  __syncthreads();
  mistakes += !same(before, read_builtins());
  __syncwarp();
  mistakes += !same(before, read_builtins());
  const long long start = clock64();
  while (clock64() - start < 1000) {
  }
  mistakes += !same(before, read_builtins());
  cg::this_grid().sync();
  mistakes += !same(before, read_builtins());
  const unsigned int after = blockIdx.x + gridDim.x * blockIdx.y;
  ids[block * blockDim.x * blockDim.y * blockDim.z + thread] = after * 1000 + thread;
  if (mistakes != 0) atomicAdd(wrong, mistakes);
}

int main() {
  const dim3 grid(4, 2), block(8, 4, 2);
  const unsigned int threads = grid.x * grid.y * block.x * block.y * block.z;
  int* wrong = nullptr;
  unsigned int* ids = nullptr;
  cudaMallocManaged(&wrong, sizeof(int));
  cudaMallocManaged(&ids, threads * sizeof(unsigned int));
  *wrong = 0;
  void* args[] = {&wrong, &ids};
  const cudaError_t launched =
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(check_builtins), grid, block, args, 0, nullptr);
  const cudaError_t synced = cudaDeviceSynchronize();
  unsigned int misplaced = 0;
  for (unsigned int i = 0; i < threads; ++i) {
    const unsigned int per_block = block.x * block.y * block.z;
    if (ids[i] != i / per_block * 1000 + i % per_block) ++misplaced;
  }
  std::printf("launch %s, sync %s, %d values changed across a wait, %u threads wrote another's slot\n",
              cudaGetErrorName(launched), cudaGetErrorName(synced), *wrong, misplaced);
  const bool passed = launched == cudaSuccess && synced == cudaSuccess && *wrong == 0 && misplaced == 0;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
