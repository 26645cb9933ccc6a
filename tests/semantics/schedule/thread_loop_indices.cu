// A block's threads run in the kernel's own loop (thread_loop.hpp), which
// steps the 3D thread index from one thread to the next, and computes it
// afresh when a fiber whose thread waited (here at a shuffle, before the
// rest of its block had started) goes on with threads that other fibers
// left: every thread must still see its own threadIdx.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void record(unsigned* out) {
  const unsigned linear = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  const unsigned block = blockIdx.x * blockDim.x * blockDim.y * blockDim.z;
  // Half the warps meet at a shuffle: their lanes park, and the fibers they
  // leave take the threads after them.
  unsigned value = linear;
  if ((linear / 32) % 2 == 0) value = __shfl_sync(0xffffffffu, linear, 0) + (linear % 32);
  out[block + linear] = value;
}

int main() {
  const dim3 block(8, 4, 5);  // 160 threads: 5 warps
  const unsigned threads = block.x * block.y * block.z, blocks = 3;
  unsigned* out;
  cudaMallocManaged(&out, blocks * threads * sizeof(unsigned));
  record<<<blocks, block>>>(out);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (unsigned i = 0; i < blocks * threads; ++i) wrong += out[i] != i % threads;
  std::printf("%d wrong indices\n%s\n", wrong, wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
