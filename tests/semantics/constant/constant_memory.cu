// __constant__ memory: written by the host with cudaMemcpyToSymbol, read by
// every thread of a kernel. Prints PASSED when the kernel saw the values.
// The comparison allows a few ulps: a GPU contracts the polynomial into
// fused multiply-adds (nvcc's -fmad=true), the host code does not.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coefficients[4];
__constant__ int offset = 10;  // an initialised constant keeps its value

__global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = coefficients[0] + v * (coefficients[1] + v * (coefficients[2] + v * coefficients[3])) + offset;
  }
}

int main() {
  const int n = 100;
  const float c[4] = {1.0f, 2.0f, 0.5f, 0.25f};
  if (cudaMemcpyToSymbol(coefficients, c, sizeof c) != cudaSuccess) return 1;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = float(i) / 10.0f;
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  polynomial<<<(n + 31) / 32, 32>>>(x, y, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float v = hx[i];
    const float expected = c[0] + v * (c[1] + v * (c[2] + v * c[3])) + 10;
    wrong += std::fabs(hy[i] - expected) > 1e-6f * std::fabs(expected);
  }
  std::printf("constant memory: %s\n", wrong ? "FAILED" : "PASSED");
  return wrong ? 1 : 0;
}
