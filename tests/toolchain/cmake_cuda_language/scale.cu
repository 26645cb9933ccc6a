#include <cuda_runtime.h>

__global__ void scale(float* data, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

// Called from main.cpp, which the host compiler builds as C++17.
int scale_on_device(float* host, float factor, int n) {
  float* device = nullptr;
  if (cudaMalloc(&device, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(device, factor, n);
  cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
