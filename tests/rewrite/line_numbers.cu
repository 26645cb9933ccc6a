// Layouts that once made cusim-cc lose count of lines: what comes after
// each must still be reported at its own line (__LINE__ here; compiler
// errors, gdb and assert messages alike).
#include <cstdio>
#include <cuda_runtime.h>

static
__constant__ int scale = 2;

__global__ void k(int* out) {
  extern
  __shared__ int dynamic_part[];
  __shared__ int first[4],







                 // a run of blank lines: the preprocessor writes a line marker here







                 second[4];
  dynamic_part[threadIdx.x] = scale;
  first[threadIdx.x] = second[threadIdx.x] = 1;
  if (threadIdx.x == 0) out[0] = __LINE__;
}

int main() {
  int* out;
  cudaMallocManaged(&out, sizeof(int));
  k
      <<<1, 4, 4 * sizeof(int)>>>
      (out);
  cudaDeviceSynchronize();
  std::printf("kernel line %d, main line %d\n", out[0], __LINE__);
  // OUTPUT: kernel line 32, main line 42
  return 0;
}
