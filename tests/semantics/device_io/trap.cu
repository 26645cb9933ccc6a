// __trap() and __brkpt() in a kernel: the launch fails with
// cudaErrorLaunchFailure, and the error is sticky (later calls fail too),
// as on a GPU. cusim also reports the thread and the line on stderr.
//   trap trap|brkpt
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void stops(int* out, bool breakpoint) {
  out[threadIdx.x] = 1;
  if (threadIdx.x == 5) {
    if (breakpoint) __brkpt();
    else __trap();
  }
}

int main(int argc, char** argv) {
  const bool breakpoint = argc > 1 && std::strcmp(argv[1], "brkpt") == 0;
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  stops<<<1, 32>>>(out, breakpoint);
  std::printf("%s: synchronise %s\n", breakpoint ? "__brkpt" : "__trap", cudaGetErrorName(cudaDeviceSynchronize()));
  int* more = nullptr;
  std::printf("then cudaMalloc %s, cudaGetLastError %s\n", cudaGetErrorName(cudaMalloc(&more, 4)),
              cudaGetErrorName(cudaGetLastError()));
  return 0;
}
