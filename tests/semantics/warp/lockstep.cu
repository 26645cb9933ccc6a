// A warp-synchronous reduction in shared memory with no __syncwarp: correct
// only where the lanes of a warp advance together, as on GPUs before Volta
// (and, by luck of compilation, often after). Built twice (CMake): the
// default warp mode runs each thread until it waits, so thread 0 adds
// partial sums the others have not written yet and the total is wrong;
// cusim-cc --warp-mode=lockstep advances the block's threads one memory
// access at a time together, and the total is 32. (cusim-cc --check=race
// reports the race, which is the fix's pointer: __syncwarp() between steps.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_sync_reduce(const int* in, int* out) {
  __shared__ volatile int partial[64];
  const int t = threadIdx.x;
  partial[t] = 0;  // every entry holds a number before anyone reads it
  partial[t + 32] = 0;
  __syncthreads();
  partial[t] = in[t];
  partial[t] += partial[t + 16];
  partial[t] += partial[t + 8];
  partial[t] += partial[t + 4];
  partial[t] += partial[t + 2];
  partial[t] += partial[t + 1];
  if (t == 0) *out = partial[0];
}

int main() {
  int* in;
  int* out;
  cudaMallocManaged(&in, 32 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  for (int i = 0; i < 32; ++i) in[i] = 1;
  warp_sync_reduce<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("warp-synchronous sum of 32 ones: %d\n", *out);
  return 0;
}
