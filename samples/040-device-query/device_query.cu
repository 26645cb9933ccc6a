// 040 — device query: what the GPU you program for looks like.
//
// cudaGetDeviceProperties describes the device: how many streaming
// multiprocessors (SMs) it has, how many threads a block and an SM may hold,
// how much shared memory a block gets. These numbers decide which launches
// are valid and how many blocks run at once. Under cusim they come from the
// modelled GPU: CUSIM_DEVICE=sm_80 ./device_query shows an A100.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 1;
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
  std::printf("device 0: %s, compute capability %d.%d\n", p.name, p.major, p.minor);
  std::printf("  streaming multiprocessors   %d\n", p.multiProcessorCount);
  std::printf("  threads per block (max)     %d, dims %d x %d x %d\n", p.maxThreadsPerBlock, p.maxThreadsDim[0],
              p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("  grid dims (max)             %d x %d x %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("  threads per SM (max)        %d (%d warps of %d)\n", p.maxThreadsPerMultiProcessor,
              p.maxThreadsPerMultiProcessor / p.warpSize, p.warpSize);
  std::printf("  blocks per SM (max)         %d\n", p.maxBlocksPerMultiProcessor);
  std::printf("  shared memory per block     %zu bytes (%zu with opt-in)\n", p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin);
  std::printf("  shared memory per SM        %zu bytes\n", p.sharedMemPerMultiprocessor);
  std::printf("  global memory               %.1f GiB\n", double(p.totalGlobalMem) / (1 << 30));
  // A block of 1000 threads is ceil(1000 / 32) = 32 warps: 31 full ones and a last one
  // with 8 threads and 24 idle lanes.
  const int threads = 1000, warps = (threads + p.warpSize - 1) / p.warpSize;
  std::printf("  a block of %d threads runs as %d warps (%d idle lanes in the last)\n", threads, warps,
              warps * p.warpSize - threads);
  std::printf("PASSED\n");
  return 0;
}
