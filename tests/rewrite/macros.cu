// The macros nvcc defines, as a .cu file sees them under cusim-cc.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef __CUDACC__
#error "__CUDACC__ must be defined for .cu files"
#endif

// __host__ __device__ code takes the device branch in a kernel and the host
// branch on the host, as nvcc's two passes compile it
// (tests/semantics/compat/cuda_arch.cu has the rest).
__host__ __device__ const char* side() {
#ifdef __CUDA_ARCH__
  return "device";
#else
  return "host";
#endif
}

__global__ void report() { printf("kernel sees the %s branch\n", side()); }

int main() {
  std::printf("nvcc %d.%d, runtime %d, arch list %d, cusim %d, nvcc macro %d\n", __CUDACC_VER_MAJOR__,
              __CUDACC_VER_MINOR__, CUDART_VERSION, __CUDA_ARCH_LIST__, __CUSIM__, __NVCC__);
  // OUTPUT: nvcc 13.0, runtime 13000, arch list 900, cusim 1, nvcc macro 1
#if defined(__CUDACC_RDC__) || defined(__CUDACC_EXTENDED_LAMBDA__) || defined(__CUDACC_RELAXED_CONSTEXPR__)
  std::printf("mode macros defined without their options\n");
#endif
  // CHECK-NOT: mode macros defined
  report<<<1, 1>>>();
  cudaDeviceSynchronize();
  // OUTPUT: kernel sees the device branch
  std::printf("host sees the %s branch\n", side());
  // OUTPUT: host sees the host branch
  return 0;
}
