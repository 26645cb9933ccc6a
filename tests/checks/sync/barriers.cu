// Barrier misuse a GPU from sm_70 on survives, and cusim reports as a
// warning (with CUSIM_CHECKS=fatal, as a failed launch): one case per
// argument. Each kernel sums 64 ones per block.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// __syncthreads in both branches of an if: two call sites, one barrier.
__global__ void two_sites(int* out) {
  __shared__ int values[64];
  values[threadIdx.x] = 1;
  if (threadIdx.x < 32) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < 64; ++i) sum += values[i];
    out[blockIdx.x] = sum;
  }
}

// Threads past the end return before the barrier the others wait at.
__global__ void early_exit(int* out, unsigned int n) {
  __shared__ int values[64];
  if (threadIdx.x >= n) return;
  values[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned int i = 0; i < n; ++i) sum += values[i];
    out[blockIdx.x] = sum;
  }
}

// The correct version: every thread reaches the one barrier.
__global__ void clean(int* out) {
  __shared__ int values[64];
  values[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < 64; ++i) sum += values[i];
    out[blockIdx.x] = sum;
  }
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* out;
  cudaMallocManaged(&out, 2 * sizeof(int));
  out[0] = out[1] = -1;
  if (std::strcmp(which, "two-sites") == 0) {
    two_sites<<<2, 64>>>(out);
  } else if (std::strcmp(which, "early-exit") == 0) {
    early_exit<<<2, 64>>>(out, 48);
  } else if (std::strcmp(which, "clean") == 0) {
    clean<<<2, 64>>>(out);
  } else {
    std::printf("usage: barriers two-sites|early-exit|clean\n");
    return 2;
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s, sums %d %d\n", which, cudaGetErrorName(e), out[0], out[1]);
  return 0;
}
