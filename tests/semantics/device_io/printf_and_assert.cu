// Device printf and assert, checked by CTest against the output they print.
//   printf_and_assert print   -> one line per printf call, never torn
//   printf_and_assert assert  -> CUDA's assert report, then cudaErrorAssert
#include <cassert>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void hello() { printf("block %d thread %d says hello\n", blockIdx.x, threadIdx.x); }

__global__ void check_thread(int* out) {
  assert(threadIdx.x != 3 || blockIdx.x != 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "print") == 0) {
    hello<<<2, 4>>>();
    std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  int* out = nullptr;
  cudaMalloc(&out, 16 * sizeof(int));
  check_thread<<<2, 8>>>(out);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("malloc after: %s\n", cudaGetErrorName(cudaMalloc(&out, 16)));
  std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  std::printf("malloc after reset: %s\n", cudaGetErrorName(cudaMalloc(&out, 16)));
  return 0;
}
