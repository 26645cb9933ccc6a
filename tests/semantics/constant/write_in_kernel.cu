// Must not compile: __constant__ memory is read-only in device code (nvcc
// rejects the assignment too). CTest expects cusim-cc to fail on this file.
#include <cuda_runtime.h>

__constant__ int limit;

__global__ void overwrite() { limit = 5; }

int main() {
  overwrite<<<1, 1>>>();
  return 0;
}
