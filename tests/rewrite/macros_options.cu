// Options that change what nvcc defines: -arch picks the architecture list
// (and cusim's default device profile), -rdc, --extended-lambda and
// --expt-relaxed-constexpr define their macros.
// FLAGS: -arch=sm_80 -rdc=true --extended-lambda --expt-relaxed-constexpr
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("arch list %d, profile %d.%d, rdc %d, lambda %d, constexpr %d\n", __CUDA_ARCH_LIST__, prop.major,
              prop.minor, __CUDACC_RDC__, __CUDACC_EXTENDED_LAMBDA__, __CUDACC_RELAXED_CONSTEXPR__);
  // OUTPUT: arch list 800, profile 8.0, rdc 1, lambda 1, constexpr 1
  return 0;
}
