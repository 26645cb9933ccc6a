// 030 — dot product: shared memory and __syncthreads.
//
// Each block of 256 threads sums its share of a*b in a grid-stride loop, then
// the block reduces its 256 partial sums in shared memory: at every step half
// of the remaining threads add a partner's value. __syncthreads() between
// steps makes every write of one step visible before the next step reads it.
// Each block leaves one partial sum; the host adds the blocks' sums.
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int threads_per_block = 256;  // a power of two, for the halving reduction
const int blocks = 64;

__global__ void dot(const float* a, const float* b, float* block_sums, int n) {
  __shared__ float partial[threads_per_block];  // one per block, shared by its threads

  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += a[i] * b[i];
  partial[threadIdx.x] = sum;
  __syncthreads();  // every partial sum is written before any is read

  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();  // outside the if: every thread of the block must reach it
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 20;
  float* a = new float[n];
  float* b = new float[n];
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 16);
    b[i] = 0.5f;
  }
  float *da, *db, *dsums;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(float)));
  CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));

  dot<<<blocks, threads_per_block>>>(da, db, dsums, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float sums[blocks];
  CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
  double result = 0.0;
  for (float s : sums) result += s;
  // Sum of (i % 16) * 0.5 over n elements: n/16 repetitions of 0.5 * (0 + ... + 15).
  const double expected = double(n / 16) * 0.5 * 120.0;
  const bool ok = result == expected;
  std::printf("dot product of %d elements: %.1f (expected %.1f): %s\n", n, result, expected,
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dsums));
  delete[] a;
  delete[] b;
  return ok ? 0 : 1;
}
