// Threads that return before the rest of their block waits. cusim's thread
// loop records exits in batches (include/cusim/detail/thread_loop.hpp); the
// threads that wait after them must still see them gone, as a GPU does
// (sm_70+: an exited thread holds no barrier and is no active lane):
// - a __syncthreads reached only by the threads after the early exits
//   completes, counts only its arrivals, and is not reported as a barrier
//   that threads left while others waited (they left before anyone waited);
// - __activemask and __ballot_sync in a warp whose first lanes returned name
//   only the lanes still there;
// - a thread spinning on a flag that a later thread sets still sees it.
// The output is compared with an H100's (diff.schedule.early_exits).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int threads = 256;
constexpr int gone = 56;  // threads 0..55 return at once: a warp and most of the next

__global__ void barrier_after_exits(int* counts, int* sums) {
  __shared__ int values[threads];
  if (threadIdx.x < gone) return;
  values[threadIdx.x] = threadIdx.x;
  const int arrived = __syncthreads_count(1);
  int sum = 0;
  for (int i = gone; i < threads; ++i) sum += values[i];
  __syncthreads();
  if (threadIdx.x == threads - 1) {
    counts[blockIdx.x] = arrived;
    sums[blockIdx.x] = sum;
  }
}

__global__ void lanes_after_exits(unsigned* active, unsigned* ballots) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane < 8 + warp) return;  // each warp loses its first 8 + warp lanes
  const unsigned mask = __activemask();
  const unsigned ballot = __ballot_sync(mask, lane % 2 == 0);
  if (lane == 31) {
    active[warp] = mask;
    ballots[warp] = ballot;
  }
}

__global__ void spin_on_later_thread(int* flag, int* seen) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    *seen = atomicAdd(flag, 0);
  } else if (threadIdx.x == blockDim.x - 1) {
    atomicExch(flag, 7);
  }
}

int main() {
  int *counts, *sums, *flag, *seen;
  unsigned *active, *ballots;
  cudaMallocManaged(&counts, 4 * sizeof(int));
  cudaMallocManaged(&sums, 4 * sizeof(int));
  cudaMallocManaged(&active, 8 * sizeof(unsigned));
  cudaMallocManaged(&ballots, 8 * sizeof(unsigned));
  cudaMallocManaged(&flag, sizeof(int));
  cudaMallocManaged(&seen, sizeof(int));
  *flag = 0;
  *seen = 0;

  barrier_after_exits<<<4, threads>>>(counts, sums);
  lanes_after_exits<<<1, threads>>>(active, ballots);
  spin_on_later_thread<<<1, threads>>>(flag, seen);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("synchronize: %s\n", cudaGetErrorName(error));

  bool ok = error == cudaSuccess;
  for (int b = 0; b < 4; ++b) {
    std::printf("block %d: __syncthreads_count %d, sum %d\n", b, counts[b], sums[b]);
    ok = ok && counts[b] == threads - gone && sums[b] == (threads - 1 + gone) * (threads - gone) / 2;
  }
  for (unsigned w = 0; w < threads / 32; ++w) {
    const unsigned expected = ~0u << (8 + w);
    std::printf("warp %u: __activemask %08x, ballot %08x\n", w, active[w], ballots[w]);
    ok = ok && active[w] == expected && ballots[w] == (expected & 0x55555555u);
  }
  std::printf("spinning thread saw %d\n", *seen);
  ok = ok && *seen == 7;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
