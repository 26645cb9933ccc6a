#include <cuda_runtime.h>

#include "histogram.h"

// Each block counts into shared bins, then adds them to the global ones.
__global__ void count(const unsigned char* values, int n, unsigned int* global_bins) {
  __shared__ unsigned int local[bins];
  if (threadIdx.x < bins) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[values[i] % bins], 1u);
  }
  __syncthreads();
  if (threadIdx.x < bins) atomicAdd(&global_bins[threadIdx.x], local[threadIdx.x]);
}

void histogram_on_device(const unsigned char* device_values, int n, unsigned int* device_bins) {
  count<<<8, 128>>>(device_values, n, device_bins);
}
