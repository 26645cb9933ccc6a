// The largest grid CUDA allows, 2^31-1 blocks: it launches (an H100 accepts
// it: reference/), runs in bounded memory, and the host stays responsive
// while it runs: queries answer at once and other streams' work goes on.
// The kernel then stops itself: once the host sets a flag, the next block
// traps, which ends the grid (cudaErrorLaunchFailure) instead of running
// the remaining two billion blocks.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__global__ void until_stopped(int* stop, unsigned long long* blocks_run) {
  if (atomicAdd(stop, 0) != 0) __trap();  // an atomic read: the host sets it while the grid runs
  if (threadIdx.x == 0) atomicAdd(blocks_run, 1ull);
}

__global__ void small(int* out) { out[threadIdx.x] = threadIdx.x; }

// Waits until the grid has run `count` blocks: the test waits for progress,
// not for a time.
void wait_for_blocks(const unsigned long long* blocks_run, unsigned long long count) {
  while (__atomic_load_n(blocks_run, __ATOMIC_ACQUIRE) < count) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

long peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int main() {
  int* stop = nullptr;
  unsigned long long* blocks_run = nullptr;
  cudaMallocManaged(&stop, sizeof(int));
  cudaMallocManaged(&blocks_run, sizeof(unsigned long long));
  *stop = 0;
  *blocks_run = 0;
  const long before = peak_kib();
  cudaStream_t busy, other;
  cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  until_stopped<<<2147483647u, 32, 0, busy>>>(stop, blocks_run);
  std::printf("launch %s\n", cudaGetErrorName(cudaGetLastError()));

  // While it runs: a query answers at once, another stream's kernel and copy complete.
  wait_for_blocks(blocks_run, 2000);
  const auto asked = std::chrono::steady_clock::now();
  const cudaError_t query = cudaStreamQuery(busy);
  const double query_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
  std::printf("query while running %s, answered in under 100 ms: %s\n", cudaGetErrorName(query),
              query_ms < 100 ? "yes" : "no");
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  small<<<1, 32, 0, other>>>(out);
  int back[32] = {};
  cudaMemcpyAsync(back, out, sizeof back, cudaMemcpyDeviceToHost, other);
  std::printf("other stream %s, out[31] = %d\n", cudaGetErrorName(cudaStreamSynchronize(other)), back[31]);

  wait_for_blocks(blocks_run, 50000);
  const long grown = peak_kib() - before;
  std::printf("memory while running bounded (under 64 MiB more): %s\n", grown < 64 * 1024 ? "yes" : "no");
  __atomic_store_n(stop, 1, __ATOMIC_RELEASE);
  const cudaError_t ended = cudaStreamSynchronize(busy);
  std::printf("stopped: %s, blocks run: %s\n", cudaGetErrorName(ended),
              *blocks_run > 1000 && *blocks_run < 2147483647ull ? "some" : "none or all");
  return 0;
}
