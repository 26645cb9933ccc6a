// Crashes on purpose: thread 5 of block 1 writes through the null pointer it
// is given. CTest runs this under gdb and expects the backtrace to name the
// kernel and this file at the line of the write, not cusim-cc's rewritten
// intermediate file. Plain CUDA: nvcc builds it too.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void write_through_null(int* p) {
  if (blockIdx.x == 1 && threadIdx.x == 5) {
    *p = 1;  // line 10: the faulting write (the CMake test names this line)
  }
}

int main() {
  write_through_null<<<2, 8>>>(nullptr);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("not reached on a CPU: %s\n", cudaGetErrorString(err));
  return 0;
}
