// A thread that waits for another through a plain volatile flag, with
// nothing in the loop where cusim could switch threads: on a GPU thread 31
// runs alongside thread 0 and sets the flag; on cusim thread 0 never yields,
// so the program would hang. The stall watchdog must say so (CTest sets
// CUSIM_WATCHDOG=1); a host thread then ends the program.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cuda_runtime.h>

__global__ void wait_for_flag(volatile int* flag) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
  }
  if (threadIdx.x == 31) *flag = 1;
}

int main() {
  int* flag;
  cudaMallocManaged(&flag, sizeof(int));
  *flag = 0;
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    std::fflush(stdout);
    std::_Exit(0);
  }).detach();
  wait_for_flag<<<1, 32>>>(flag);
  cudaDeviceSynchronize();
  std::printf("finished: %d\n", *flag);
  return 0;
}
