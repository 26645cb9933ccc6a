// 050 — one kernel template for float and half, and what half precision costs.
//
// y = a*x + y, written once as a template. The launches name no template
// arguments: `axpy<<<blocks, threads>>>(a, x, y, n)` deduces T from the
// arguments, so the float launch runs axpy<float> and the half launch runs
// axpy<__half>. __half (cuda_fp16.h) stores 16 bits: an 11-bit significand,
// so about 3 decimal digits, and nothing above 65504. Each half operation
// rounds to the nearest half, which is why the half result differs from the
// float one by a little for ordinary values, and overflows to infinity for
// large ones. Build: cusim-cc half_axpy.cu -o half_axpy (or nvcc).
#include <cmath>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];  // __half has its own * and +, each rounding to half
}

// Runs y = a*x + y on the device for element type T; returns the results as floats.
template <class T>
int run_axpy(float a, const float* x, const float* y, float* result, int n) {
  T* hx = new T[n];
  T* hy = new T[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(x[i]);
    hy[i] = T(y[i]);
  }
  T *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(T)));
  CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CHECK(cudaMemcpy(dx, hx, n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, n * sizeof(T), cudaMemcpyHostToDevice));
  axpy<<<(n + 127) / 128, 128>>>(T(a), dx, dy, n);  // T deduced from the arguments
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hy, dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) result[i] = float(hy[i]);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  delete[] hx;
  delete[] hy;
  return 0;
}

int main() {
  const int n = 1000;
  float x[n], y[n], in_float[n], in_half[n];
  for (int i = 0; i < n; ++i) {
    x[i] = 0.001f * i;
    y[i] = 1.0f + 0.1f * (i % 7);
  }
  x[n - 1] = 30000.0f;  // 3 * 30000 is past half's largest value
  if (run_axpy<float>(3.0f, x, y, in_float, n) || run_axpy<__half>(3.0f, x, y, in_half, n)) return 1;

  double largest_relative_error = 0.0;
  for (int i = 0; i < n - 1; ++i) {
    largest_relative_error = std::fmax(largest_relative_error, std::fabs(in_half[i] - in_float[i]) / in_float[i]);
  }
  std::printf("float: y[10] = %.6f   half: y[10] = %.6f\n", in_float[10], in_half[10]);
  std::printf("largest relative difference: %.5f (half keeps about 3 decimal digits)\n", largest_relative_error);
  std::printf("y[%d]: float %.1f, half %f (overflow)\n", n - 1, in_float[n - 1], in_half[n - 1]);
  const bool ok = largest_relative_error < 2e-3 && std::isinf(in_half[n - 1]) && in_float[n - 1] > 90000.0f;
  std::printf("half-precision axpy of %d elements: %s\n", n, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
