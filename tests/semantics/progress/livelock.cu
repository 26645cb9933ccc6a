// Threads that spin on an atomic that nothing will ever set: they keep
// yielding (each atomic is a progress point), so the engine never sees every
// thread parked, yet none finishes. The stall watchdog must say so (CTest
// sets CUSIM_WATCHDOG=1); a host thread then ends the program.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cuda_runtime.h>

__global__ void wait_forever(int* flag) {
  while (atomicAdd(flag, 0) == 0) {
  }
}

int main() {
  int* flag;
  cudaMallocManaged(&flag, sizeof(int));
  *flag = 0;
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    std::_Exit(0);
  }).detach();
  wait_forever<<<2, 64>>>(flag);
  cudaDeviceSynchronize();
  return 0;
}
