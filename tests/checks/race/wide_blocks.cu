// A correct kernel whose blocks of 1024 threads, on 4 workers that each keep
// a block alive, would be more threads than ThreadSanitizer follows at once
// (each race-checked CUDA thread costs it about two of its 8128): the
// launch runs on fewer workers (src/api/launch.cpp, plan_grid) instead of
// ThreadSanitizer ending the program ("Thread limit exceeded").
#include <cstdio>
#include <cuda_runtime.h>

constexpr int threads = 1024;

__global__ void block_sums(const int* in, int* out) {
  __shared__ int partial[threads];
  partial[threadIdx.x] = in[blockIdx.x * threads + threadIdx.x];
  __syncthreads();
  for (int stride = threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main() {
  constexpr int blocks = 8;
  int *in = nullptr, *out = nullptr;
  cudaMallocManaged(&in, sizeof(int) * blocks * threads);
  cudaMallocManaged(&out, sizeof(int) * blocks);
  for (int i = 0; i < blocks * threads; ++i) in[i] = 1;
  block_sums<<<blocks, threads>>>(in, out);
  const cudaError_t result = cudaDeviceSynchronize();
  int right = 0;
  for (int b = 0; b < blocks; ++b) right += out[b] == threads;
  std::printf("%s: %d of %d block sums right\n%s\n", cudaGetErrorName(result), right, blocks,
              result == cudaSuccess && right == blocks ? "PASSED" : "FAILED");
  return 0;
}
