// Block 0 waits until every other block has counted in. CUDA promises
// nothing here (blocks of a grid need not run at once), but a GPU runs the
// others on its other multiprocessors, and so does cusim on its other
// workers: blocks are handed out one at a time, so an idle worker takes
// any block not started, and none is held back by a worker busy with
// block 0.
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

int main() {
  unsigned *counter, *seen;
  cudaMallocManaged(&counter, sizeof(unsigned));
  cudaMallocManaged(&seen, sizeof(unsigned));
  *counter = 0;
  *seen = 0;
  const unsigned blocks = 4096;
  wait_for_the_others<<<blocks, 32>>>(counter, seen);
  const cudaError_t result = cudaDeviceSynchronize();
  std::printf("%s, block 0 saw %u of %u\n%s\n", cudaGetErrorName(result), *seen, blocks - 1,
              result == cudaSuccess && *seen == blocks - 1 ? "PASSED" : "FAILED");
  return 0;
}
