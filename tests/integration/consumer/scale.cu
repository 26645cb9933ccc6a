#include <cuda_runtime.h>

#include "scale.h"

__global__ void scale_kernel(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

void scale_on_device(float* device_data, int n, float factor) {
  scale_kernel<<<(n + 127) / 128, 128>>>(device_data, n, factor);
}
