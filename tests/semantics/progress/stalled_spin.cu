// A thread that waits for another through a plain volatile flag, with
// nothing in the loop where cusim could switch threads: on a GPU thread 31
// runs alongside thread 0 and sets the flag; on cusim thread 0 never yields,
// so the program would hang. The stall watchdog must say so (CTest sets
// CUSIM_WATCHDOG=0.25); a host thread then ends the program.
#include <cstdio>
#include <cuda_runtime.h>

#include "exit_after.hpp"

__global__ void wait_for_flag(volatile int* flag) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
  }
  if (threadIdx.x == 31) *flag = 1;
}

int main(int argc, char** argv) {
  int* flag;
  cudaMallocManaged(&flag, sizeof(int));
  *flag = 0;
  exit_after_argument(argc, argv);
  wait_for_flag<<<1, 32>>>(flag);
  cudaDeviceSynchronize();
  std::printf("finished: %d\n", *flag);
  return 0;
}
