// Half precision in kernels: __half and __half2 storage, conversions with
// CUDA's rounding, arithmetic, and a mixed-precision dot product (half inputs,
// float accumulation). Prints values that a GPU prints identically.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void half_math(const __half* x, const __half2* pairs, float* out, int n) {
  __shared__ float partial[64];
  int i = threadIdx.x;
  float product = 0.0f;
  if (i < n) product = __half2float(x[i]) * __half2float(x[i]);
  partial[i] = product;
  __syncthreads();
  for (int half_width = blockDim.x / 2; half_width > 0; half_width /= 2) {
    if (i < half_width) partial[i] += partial[i + half_width];
    __syncthreads();
  }
  if (i == 0) {
    out[0] = partial[0];
    __half2 squared = __hmul2(pairs[0], pairs[0]);
    out[1] = __low2float(squared);
    out[2] = __high2float(squared);
    out[3] = __half2float(__hadd(__float2half(65504.0f), __float2half(64.0f)));  // overflows to infinity
    out[4] = __half2float(__float2half(CUDART_PI_F));
    out[5] = __half2float(__hfma(x[1], x[2], x[3]));
    out[6] = float(__half_as_ushort(__float2half(1.0f / 3.0f)));
  }
}

int main() {
  const int n = 64;
  __half host_x[n];
  for (int i = 0; i < n; ++i) host_x[i] = __float2half(0.25f * i);
  __half2 host_pair = __floats2half2_rn(1.5f, -0.1f);
  __half* x;
  __half2* pairs;
  float* out;
  cudaMalloc(&x, sizeof host_x);
  cudaMalloc(&pairs, sizeof host_pair);
  cudaMalloc(&out, 7 * sizeof(float));
  cudaMemcpy(x, host_x, sizeof host_x, cudaMemcpyHostToDevice);
  cudaMemcpy(pairs, &host_pair, sizeof host_pair, cudaMemcpyHostToDevice);
  half_math<<<1, n>>>(x, pairs, out, n);
  float result[7];
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  std::printf("sum of squares %.4f\n", result[0]);
  std::printf("pair squared %.8f %.8f\n", result[1], result[2]);
  std::printf("overflow %f, pi %.8f, fma %.4f, third bits 0x%x\n", result[3], result[4], result[5],
              unsigned(result[6]));
  const bool ok = result[0] == 5334.0f && result[3] > 1e38f && result[6] == float(0x3555);
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  cudaFree(x);
  cudaFree(pairs);
  cudaFree(out);
  return ok ? 0 : 1;
}
