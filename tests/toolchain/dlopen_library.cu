// A .cu file built into a shared library by `cusim-cc -shared` and loaded
// with dlopen (as a Python extension module is), with dlopen_host.cpp: its
// kernels run, with a barrier and a shuffle, in a library libcusim was
// linked into. cusim's thread-local state (the built-in variables, the
// running thread) takes static TLS space in such a library.
#include <cstdio>

__global__ void block_sums(const int* in, int* out) {
  __shared__ int partial[8];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int delta = 16; delta > 0; delta /= 2) v += __shfl_down_sync(0xffffffffu, v, delta);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int w = 0; w < 8; ++w) sum += partial[w];
    out[blockIdx.x] = sum;
  }
}

extern "C" int sum_in_blocks(int blocks) {
  int *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, blocks * 256 * sizeof(int)) != cudaSuccess) return -1;
  if (cudaMallocManaged(&out, blocks * sizeof(int)) != cudaSuccess) return -1;
  for (int i = 0; i < blocks * 256; ++i) in[i] = i % 7;
  block_sums<<<blocks, 256>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  int total = 0;
  for (int b = 0; b < blocks; ++b) total += out[b];
  cudaFree(in);
  cudaFree(out);
  return total;
}
