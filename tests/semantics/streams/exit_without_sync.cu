// A program that ends without synchronising: cusim still runs the work it
// queued, at exit, before the runtime's objects go away (a GPU may drop it,
// and its printf output with it).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void slow_hello(int* data) {
  for (int i = 0; i < 1000; ++i) data[threadIdx.x] += i;
  if (threadIdx.x == 0) printf("the kernel ran to its end: %d\n", data[0]);
}

int main() {
  int* data;
  cudaMalloc(&data, 256 * sizeof(int));
  cudaMemset(data, 0, 256 * sizeof(int));
  slow_hello<<<1, 256>>>(data);
  std::printf("main returns without synchronising\n");
  return 0;
}
