// PTX `exit` (CUB's ThreadExit) ends the calling thread from inside nested
// calls, as if its kernel had returned; the block's other threads go on,
// and warp collectives among the lanes left are well defined. cusim runs a
// kernel that never waits in one loop over the block's threads, and one
// that waits on fibers: both are here. Prints PASSED when every thread did
// exactly what it should; diff.intrinsics.ptx_exit compares with a GPU.
#include <cstdio>

constexpr unsigned threads = 100, blocks = 3;  // partial last warps

__device__ void maybe_exit(int* trace, unsigned t) {
  if (t % 3 == 0) asm volatile("exit;");
  trace[t] += 10;  // not reached by a thread that exited
}

// No barrier, no collective: cusim runs its threads one after another in a loop.
__global__ void without_waits(int* trace) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  trace[t] = 1;
  maybe_exit(trace, t);
  trace[t] += 100;
}

// The lanes that exit: those whose threadIdx.x % 5 == 1.
__host__ __device__ bool exits(unsigned x) { return x % 5 == 1; }

// After a barrier, some lanes exit; the rest take a ballot among themselves.
__global__ void with_waits(int* trace, unsigned* ballots) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  trace[t] = 1;
  __syncthreads();
  if (exits(threadIdx.x)) asm volatile("exit;");
  const unsigned warp_first = threadIdx.x / 32 * 32;
  unsigned staying = 0;
  for (unsigned lane = 0; lane < 32 && warp_first + lane < blockDim.x; ++lane) {
    if (!exits(warp_first + lane)) staying |= 1u << lane;
  }
  const unsigned odd = __ballot_sync(staying, threadIdx.x & 1);
  if (threadIdx.x == warp_first + __ffs(staying) - 1) ballots[blockIdx.x * 4 + threadIdx.x / 32] = odd;
  trace[t] += 100;
}

int main() {
  int* trace;
  unsigned* ballots;
  cudaMallocManaged(&trace, blocks * threads * sizeof(int));
  cudaMallocManaged(&ballots, blocks * 4 * sizeof(unsigned));
  bool ok = true;

  without_waits<<<blocks, threads>>>(trace);
  std::printf("without waits: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int exited = 0;
  for (unsigned t = 0; t < blocks * threads; ++t) {
    const int want = t % 3 == 0 ? 1 : 111;
    ok &= trace[t] == want;
    exited += trace[t] == 1;
  }
  std::printf("  %d threads exited in maybe_exit, the others returned: %d %d %d %d\n", exited, trace[0], trace[1],
              trace[2], trace[299]);

  with_waits<<<blocks, threads>>>(trace, ballots);
  std::printf("with waits: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  exited = 0;
  for (unsigned t = 0; t < blocks * threads; ++t) {
    const int want = exits(t % threads) ? 1 : 101;
    ok &= trace[t] == want;
    exited += trace[t] == 1;
  }
  std::printf("  %d threads exited after the barrier\n", exited);
  for (unsigned w = 0; w < blocks * 4; ++w) std::printf("  ballot of warp %u among the lanes left: %08x\n", w, ballots[w]);
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
