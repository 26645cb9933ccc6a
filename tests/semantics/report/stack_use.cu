// The kernel report's stack line: one thread of a kernel fills a 40000-byte
// local array, so the report says that threads have used at least 40 KiB
// of their stacks; a kernel of small frames after it still shows the deepest
// use so far (pages stay committed once touched).
#include <cstdio>

__global__ void deep_frame(int* out) {
  volatile char local[40000];
  for (int i = 0; i < 40000; i += 64) local[i] = static_cast<char>(i);
  out[threadIdx.x] = local[threadIdx.x * 64];
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  deep_frame<<<1, 32>>>(out);
  std::printf("sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
