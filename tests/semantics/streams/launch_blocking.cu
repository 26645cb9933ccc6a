// CUDA_LAUNCH_BLOCKING=1 makes every launch synchronous: the kernel has run
// when the launch returns. Without it, the launch returns at once (the
// kernel waits here for a flag the host sets only afterwards).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void set_after_flag(volatile int* flag, int* out) {
  while (*flag == 0) __nanosleep(1000);
  *out = 1;
}
__global__ void set(int* out) { *out = 2; }

int main() {
  const char* blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  int* flag;
  int* out;
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  cudaMallocManaged(&out, sizeof(int));
  *out = 0;
  bool ok = true;
  if (blocking != nullptr && blocking[0] == '1') {
    set<<<1, 1>>>(out);
    ok = *out == 2;  // read with no synchronisation: the launch was synchronous
    std::printf("CUDA_LAUNCH_BLOCKING=1: value after the launch %d\n", *out);
  } else {
    *flag = 0;
    set_after_flag<<<1, 1>>>(flag, out);
    const int before = *out;
    *flag = 1;
    cudaDeviceSynchronize();
    ok = before == 0 && *out == 1;
    std::printf("asynchronous: value after the launch %d, after synchronising %d\n", before, *out);
  }
  cudaDeviceSynchronize();
  std::printf("launch blocking: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
