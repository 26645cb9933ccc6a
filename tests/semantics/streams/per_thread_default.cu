// Built with --default-stream per-thread: the NULL stream is each host
// thread's own stream. Two threads' default streams do not wait for each
// other; the legacy stream (cudaStreamLegacy) still waits for both.
// FLAGS: --default-stream per-thread
#include <atomic>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__global__ void wait_until(volatile int* flag, int value) {
  while (*flag < value) __nanosleep(1000);
}
__global__ void store(int* slot, int value) { *reinterpret_cast<volatile int*>(slot) = value; }

// CUDA loads a kernel's code at its first launch (lazy loading, the
// default since CUDA 12), which waits for the kernels running: a kernel
// waiting for one launched after it then deadlocks on a GPU. Asking for each
// kernel's attributes loads them all first, as NVIDIA advises.
void load_kernels() {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, wait_until);
  cudaFuncGetAttributes(&attributes, store);
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  load_kernels();
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
  std::printf("built without --default-stream per-thread: FAILED\n");
  return 1;
#endif
  int* flags;
  cudaHostAlloc(&flags, 4 * sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < 4; ++i) flags[i] = 0;
  std::atomic<int> step{0};

  std::thread other([&] {
    wait_until<<<1, 1>>>(&flags[0], 1);  // released by the main thread's default stream
    step = 1;
    expect("other thread's stream", cudaStreamSynchronize(0), cudaSuccess);
    wait_until<<<1, 1>>>(&flags[1], 1);  // released by the host, below
    step = 2;
    cudaStreamSynchronize(0);
  });
  while (step.load() < 1) std::this_thread::yield();
  store<<<1, 1>>>(&flags[0], 1);
  expect("main thread's stream does not wait for the other thread's", cudaStreamSynchronize(0), cudaSuccess);
  expect("cudaStreamPerThread is this thread's NULL stream", cudaStreamQuery(cudaStreamPerThread), cudaSuccess);

  while (step.load() < 2) std::this_thread::yield();
  store<<<1, 1, 0, cudaStreamLegacy>>>(&flags[2], 1);
  expect("the legacy stream waits for every blocking stream", cudaStreamQuery(cudaStreamLegacy), cudaErrorNotReady);
  expect("so its kernel has not run", flags[2], 0);
  flags[1] = 1;
  expect("synchronised", cudaDeviceSynchronize(), cudaSuccess);
  expect("the legacy stream's kernel ran", flags[2], 1);
  other.join();
  cudaFreeHost(flags);
  std::printf("per-thread default streams: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
