#include <cstdio>
#include <cuda_runtime.h>

#include "histogram.h"

int main() {
  const int n = 10000;
  unsigned char values[n];
  for (int i = 0; i < n; ++i) values[i] = static_cast<unsigned char>(i);
  unsigned char* device_values;
  unsigned int* device_bins;
  cudaMalloc(&device_values, n);
  cudaMalloc(&device_bins, bins * sizeof(unsigned int));
  cudaMemcpy(device_values, values, n, cudaMemcpyHostToDevice);
  cudaMemset(device_bins, 0, bins * sizeof(unsigned int));
  histogram_on_device(device_values, n, device_bins);
  unsigned int counts[bins];
  cudaMemcpy(counts, device_bins, sizeof counts, cudaMemcpyDeviceToHost);
  unsigned int expected[bins] = {};
  for (int i = 0; i < n; ++i) ++expected[values[i] % bins];
  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += counts[b] != expected[b];
  std::printf("histogram of %d values: %s\n", n, wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
