// 080 — a histogram with shared-memory atomics.
//
// Counting bytes into 256 bins: with one global counter per bin, every
// thread of the grid fights over the same 256 addresses. Instead each block
// keeps its own 256 bins in __shared__ memory (one copy per block, fast, and
// fought over only by the block's own threads), counts its share of the
// input there with atomicAdd, and at the end adds its bins to the global
// ones: 256 global atomics per block instead of one per input byte.
// The two __syncthreads() matter: the bins must be zeroed before anyone
// counts, and all counting must be done before anyone copies them out.
// Build: cusim-cc histogram.cu -o histogram (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int bins = 256;

__global__ void histogram(const unsigned char* data, int n, unsigned int* global_bins) {
  __shared__ unsigned int local[bins];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();  // zeroed before counting
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();  // counted before copying out
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&global_bins[b], local[b]);
}

int main() {
  const int n = 1 << 20;
  unsigned char* data;
  unsigned int* counts;
  CHECK(cudaMallocManaged(&data, n));
  CHECK(cudaMallocManaged(&counts, bins * sizeof(unsigned int)));
  unsigned int expected[bins] = {};
  for (int i = 0; i < n; ++i) {
    data[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);
    ++expected[data[i]];
  }
  CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned int)));
  histogram<<<32, 256>>>(data, n, counts);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += counts[b] != expected[b];
  std::printf("histogram of %d bytes into %d bins: %d bins wrong: %s\n", n, bins, wrong, wrong == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(data));
  CHECK(cudaFree(counts));
  return wrong == 0 ? 0 : 1;
}
