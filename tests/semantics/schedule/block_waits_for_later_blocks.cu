// Block 0 waits for later blocks. CUDA promises nothing here (blocks of a
// grid need not run at once), but a GPU runs the others on its other
// multiprocessors, and so does cusim on its other workers: an idle worker
// takes any block not started, from the grid's counter or, once that is
// exhausted, from the batch of consecutive blocks the busy worker took
// (sched/cluster_batches.hpp), so none is held back by a worker busy with
// block 0. The first kernel waits for every other block; the second for
// block 1 alone, which sits in block 0's own worker's batch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_for_the_others(unsigned* counter, unsigned* seen) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(counter, 0) != gridDim.x - 1) __nanosleep(100);
      *seen = atomicAdd(counter, 0);
    }
    return;
  }
  if (threadIdx.x == 0) atomicAdd(counter, 1);
}

__global__ void wait_for_the_next(unsigned* flag, unsigned* seen) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) __nanosleep(100);
    *seen = atomicAdd(flag, 0);
  } else if (blockIdx.x == 1) {
    atomicExch(flag, 7u);
  }
}

int main() {
  unsigned *counter, *seen;
  cudaMallocManaged(&counter, sizeof(unsigned));
  cudaMallocManaged(&seen, sizeof(unsigned));
  *counter = 0;
  *seen = 0;
  const unsigned blocks = 4096;
  wait_for_the_others<<<blocks, 32>>>(counter, seen);
  cudaError_t result = cudaDeviceSynchronize();
  const bool others = result == cudaSuccess && *seen == blocks - 1;
  std::printf("%s, block 0 saw %u of %u\n", cudaGetErrorName(result), *seen, blocks - 1);
  *counter = 0;
  *seen = 0;
  wait_for_the_next<<<1024, 32>>>(counter, seen);
  result = cudaDeviceSynchronize();
  const bool next = result == cudaSuccess && *seen == 7;
  std::printf("%s, block 0 saw block 1's %u\n%s\n", cudaGetErrorName(result), *seen, others && next ? "PASSED" : "FAILED");
  return 0;
}
