// Threads that spin on an atomic that nothing will ever set: they keep
// yielding (each atomic is a progress point), so the engine never sees every
// thread parked, yet none finishes. The stall watchdog must say so (CTest
// sets CUSIM_WATCHDOG=0.25); a host thread then ends the program.
#include <cstdio>
#include <cuda_runtime.h>

#include "exit_after.hpp"

__global__ void wait_forever(int* flag) {
  while (atomicAdd(flag, 0) == 0) {
  }
}

int main(int argc, char** argv) {
  int* flag;
  cudaMallocManaged(&flag, sizeof(int));
  *flag = 0;
  exit_after_argument(argc, argv);
  wait_forever<<<2, 64>>>(flag);
  cudaDeviceSynchronize();
  return 0;
}
