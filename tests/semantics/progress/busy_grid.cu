// A grid of many short blocks that never wait, run by one worker for longer
// than the stall watchdog's delay: a fiber that finishes its block starts
// the next one itself (docs/design.md, loop fibers), and each block it
// starts counts as the worker moving on, so the watchdog reports nothing.
#include <cstdio>

__global__ void busy(float* out) {
  float x = threadIdx.x;
  for (int i = 0; i < 200; ++i) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main() {
  const int blocks = 1 << 17;
  float* out = nullptr;
  cudaMalloc(&out, sizeof(float) * blocks * 32);
  busy<<<blocks, 32>>>(out);
  std::printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
