// Uses a kernel of its own (shared memory, a template kernel deduced from its
// arguments), the scale library's kernels, a definition from CMake and the
// profile chosen by ARCH.
#include <cstdio>
#include <cuda_runtime.h>

#include "scale.h"

int report(int failures, int n);

template <class T>
__global__ void reverse_in_block(T* data) {
  __shared__ T tile[64];
  tile[threadIdx.x] = data[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}

int main() {
  const int n = 256;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* device = nullptr;
  cudaMalloc(&device, sizeof host);
  cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice);
  reverse_in_block<<<n / 64, 64>>>(device);
  scale_on_device(device, n, CONSUMER_FACTOR);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(device);

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("consumer: modelling compute capability %d.%d\n", prop.major, prop.minor);
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / 64, lane = i % 64;
    if (host[i] != float(block * 64 + 63 - lane) * CONSUMER_FACTOR) ++failures;
  }
  return report(failures, n);
}
