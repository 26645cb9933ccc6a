// 010 — vector add with one block of N threads.
//
// The first CUDA program: every element of c = a + b is computed by its own
// thread. One block holds at most 1024 threads, so N is 1000 here and the
// whole vector is one block; threadIdx.x tells each thread which element
// is its own. Build: cusim-cc vector_add.cu -o vector_add (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = threadIdx.x;  // one block: the thread index is the element index
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  const size_t bytes = n * sizeof(float);
  float ha[n], hb[n], hc[n];
  for (int i = 0; i < n; ++i) {
    ha[i] = float(i);
    hb[i] = 2.0f * float(i);
  }

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));

  vector_add<<<1, n>>>(da, db, dc, n);  // one block of n threads
  CHECK(cudaGetLastError());             // a bad launch configuration shows up here
  CHECK(cudaDeviceSynchronize());        // and a fault inside the kernel here

  CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += hc[i] != 3.0f * float(i);
  std::printf("vector add of %d elements in one block of %d threads: %s\n", n, n, wrong ? "FAILED" : "PASSED");

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return wrong ? 1 : 0;
}
