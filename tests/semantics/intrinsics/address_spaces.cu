// __isGlobal, __isShared, __isLocal and __isConstant on pointers of each
// kind. Prints one line per pointer: global shared local constant.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float table[4] = {1, 2, 3, 4};
__device__ int device_variable;

__global__ void classify(const int* allocated, unsigned int* out) {
  __shared__ int shared_array[8];
  int local_array[4];
  local_array[threadIdx.x % 4] = 1;
  const void* pointers[] = {allocated, &device_variable, shared_array + 3, local_array, &table[2]};
  for (int i = 0; i < 5; ++i) {
    out[4 * i + 0] = __isGlobal(pointers[i]);
    out[4 * i + 1] = __isShared(pointers[i]);
    out[4 * i + 2] = __isLocal(pointers[i]);
    out[4 * i + 3] = __isConstant(pointers[i]);
  }
  shared_array[0] = local_array[threadIdx.x % 4];
}

int main() {
  int* allocated;
  unsigned int* out;
  cudaMalloc(&allocated, 16);
  cudaMallocManaged(&out, 20 * sizeof(unsigned int));
  classify<<<1, 1>>>(allocated, out);
  cudaDeviceSynchronize();
  const char* names[] = {"cudaMalloc", "__device__", "__shared__", "local", "__constant__"};
  int failures = 0;
  for (int i = 0; i < 5; ++i) {
    std::printf("%-12s global %u shared %u local %u constant %u\n", names[i], out[4 * i], out[4 * i + 1],
                out[4 * i + 2], out[4 * i + 3]);
    // Exactly the one space each pointer is in: global for the first two.
    const int expected = i < 2 ? 0 : i - 1;
    for (int s = 0; s < 4; ++s) failures += out[4 * i + s] != (s == expected ? 1u : 0u);
  }
  std::printf("address spaces: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
