// Warps make progress independently: a warp that spins, with __syncwarp in
// its loop but no atomic or fence, on a flag that another warp of its block
// sets still lets that warp run, even when the other warp has stepped aside
// (__nanosleep) and waits in the queue behind it. (cusim runs the lanes of
// a completed collective next, for speed; this is the test that it still
// gives the other warps their turn.)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_for_other_warp(volatile int* flag, int* rounds) {
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    int n = 0;
    while (*flag == 0) {
      __syncwarp();
      n += __shfl_down_sync(0xffffffffu, 1, 1);
    }
    rounds[lane] = n;
  } else if (threadIdx.x == 32) {
    __nanosleep(100);  // steps aside: the spinning warp runs first
    *flag = 1;
  }
}

int main() {
  int *flag, *rounds;
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&rounds, 32 * sizeof(int));
  *flag = 0;
  wait_for_other_warp<<<1, 64>>>(flag, rounds);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  // Every lane of the spinning warp went round the loop the same number of times.
  for (int lane = 1; lane < 32; ++lane) {
    if (rounds[lane] != rounds[0]) {
      std::printf("FAILED: lane %d went round %d times, lane 0 %d\n", lane, rounds[lane], rounds[0]);
      return 1;
    }
  }
  std::printf("PASSED (the spinning warp went round %d times)\n", rounds[0]);
  return 0;
}
