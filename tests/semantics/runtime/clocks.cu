// clock() and clock64(): in a kernel they count SM cycles at the device's
// clock rate, and a thread waiting for cycles to pass does not hold up the
// others of its block (they run meanwhile, as on a GPU); in host code
// clock() is still C's. Every check holds on an H100 too (diff.clocks).
#include <cstdio>
#include <ctime>

#include <cuda_runtime.h>

static int failures = 0;

static void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  if (!ok) ++failures;
}

// Thread 0 waits `cycles` on the clock, then reads the flag thread 32 (of
// another warp) sets at once: on a GPU the other warp runs meanwhile.
__global__ void wait_then_look(volatile int* flag, long long cycles, int* seen) {
  if (threadIdx.x == 32) *flag = 1;
  if (threadIdx.x == 0) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *seen = *flag;
  }
}

// Spins for `cycles` with the 32-bit clock() the way NVIDIA's samples do,
// and records the cycles each thread saw.
__global__ void spin_with_clock(clock_t cycles, long long* elapsed) {
  const unsigned int start = static_cast<unsigned int>(clock());
  clock_t offset = 0;
  while (offset < cycles) offset = static_cast<clock_t>(static_cast<unsigned int>(clock()) - start);
  elapsed[blockIdx.x * blockDim.x + threadIdx.x] = offset;
}

int main() {
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  int *flag, *seen;
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&seen, sizeof(int));
  *flag = 0;
  *seen = -1;
  wait_then_look<<<1, 64>>>(flag, clock_khz * 2LL, seen);  // 2 ms of cycles
  cudaDeviceSynchronize();
  expect(*seen == 1, "a thread waiting on clock64() lets its block's other warps run");

  // 256 threads x 4 blocks each waiting 1 ms: they wait together.
  constexpr int threads = 1024;
  long long* elapsed;
  cudaMallocManaged(&elapsed, threads * sizeof(long long));
  spin_with_clock<<<4, 256>>>(static_cast<clock_t>(clock_khz), elapsed);
  expect(cudaDeviceSynchronize() == cudaSuccess, "a grid spinning on clock() ends");
  bool all = true;
  for (int i = 0; i < threads; ++i) all = all && elapsed[i] >= clock_khz && elapsed[i] < 1000LL * clock_khz;
  expect(all, "each thread saw its cycles pass, counted at the clock rate");

  // Host code keeps C's clock(): processor time, in CLOCKS_PER_SEC.
  const clock_t host_start = clock();
  volatile double x = 0;
  while (std::clock() - host_start < CLOCKS_PER_SEC / 100) x = x + 1;
  expect(::clock() - host_start >= CLOCKS_PER_SEC / 100, "host clock() and std::clock() are C's");
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
