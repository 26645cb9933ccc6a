// PTX cusim does not run, in a library's header, is not a compile error:
// the program builds, and only a statement that runs would be reported
// (error_inline_ptx.cu shows the user's own such PTX refused at compile time).
#include <cstdio>
#include <cuda_runtime.h>

#include "include/library_ptx.h"

__global__ void lanes(unsigned* out) { out[threadIdx.x] = library_lane(); }

int main() {
  unsigned* out;
  cudaMallocManaged(&out, 64 * sizeof(unsigned));
  lanes<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  std::printf("%u %u\n", out[3], out[35]);
  // OUTPUT: 3 3
  return 0;
}
