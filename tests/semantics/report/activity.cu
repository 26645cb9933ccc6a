// A kernel whose activity is known exactly, for the kernel report's counts:
// 2 blocks of 48 threads (2 warps each, the second with 16 idle lanes);
// every thread does 3 __syncthreads, 1 atomic and 1 fence; every warp does
// one shuffle and one vote; thread 0 of each block launches a child grid,
// which itself launches one grandchild.
// nvcc (tests/differential.cmake): kernels that launch kernels need relocatable device code.
// FLAGS: -rdc=true -lcudadevrt
#include <cstdio>

__global__ void grandchild(int* counter) { atomicAdd(counter, 1); }

__global__ void child(int* counter) {
  atomicAdd(counter, 1);
  grandchild<<<1, 1>>>(counter);
}

__global__ void activity(int* counter) {
  __shared__ int values[48];
  values[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int v = __shfl_sync(__activemask(), values[threadIdx.x], 0);
  __syncthreads();
  if (__any_sync(__activemask(), v > 40)) atomicAdd(counter, 1);
  else atomicAdd(counter, 1);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) child<<<1, 1>>>(counter);
}

int main() {
  int* counter;
  cudaMalloc(&counter, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  activity<<<2, 48>>>(counter);
  int result = 0;
  cudaMemcpy(&result, counter, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("counter %d (expected %d)\n", result, 2 * 48 + 2 + 2);
  return result == 2 * 48 + 4 ? 0 : 1;
}
