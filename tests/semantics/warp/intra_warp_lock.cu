// A spin lock taken by the lanes of one warp, written two ways. Built twice
// (CMake): with independent thread scheduling (the default, sm_70 and
// later) both count to 32. In lockstep warp mode, as on GPUs before Volta,
// "spin-then-work" hangs: the lane that took the lock has left the loop and
// waits where the paths meet for the lanes still spinning, which wait for
// its lock. "work-inside" finishes: the lane with the lock does its work on
// the path the others wait at the end of, and releases it before they meet.
#include <cstdio>
#include <cstring>

__global__ void spin_then_work(int* lock, int* counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *counter += 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void work_inside(int* lock, int* counter) {
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      *counter += 1;
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

int main(int argc, char** argv) {
  const bool inside = argc > 1 && std::strcmp(argv[1], "work-inside") == 0;
  int *lock, *counter;
  cudaMallocManaged(&lock, sizeof(int));
  cudaMallocManaged(&counter, sizeof(int));
  *lock = 0;
  *counter = 0;
  if (inside) work_inside<<<1, 32>>>(lock, counter);
  else spin_then_work<<<1, 32>>>(lock, counter);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s, counter %d\n", inside ? "work-inside" : "spin-then-work", cudaGetErrorName(e), *counter);
  return 0;
}
