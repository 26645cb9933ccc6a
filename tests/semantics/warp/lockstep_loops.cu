// Warp-synchronous code inside loops (the radix sort of NVIDIA's SDK calls
// such a scan from its digit loop): in lockstep warp mode the lanes go
// round a loop together. A loop's back edge jumps to a lower address than
// the branch it leaves, so the first lane to jump back must wait there for
// the lanes still at the branch; otherwise it runs the next pass alone and
// reads partial sums the others have not written. Built only in lockstep
// mode (CMake); each check prints PASS or FAIL.
#include <cstdio>
#include <cuda_runtime.h>

// An exclusive scan of one value per lane, warp-synchronous (no
// __syncwarp), over 64 entries per warp with a zero pad below each lane.
__device__ unsigned scan_warp(unsigned value, volatile unsigned* pad) {
  const int lane = threadIdx.x & 31;
  int at = 2 * threadIdx.x - lane;
  pad[at] = 0;
  at += 32;
  pad[at] = value;
  pad[at] += pad[at - 1];
  pad[at] += pad[at - 2];
  pad[at] += pad[at - 4];
  pad[at] += pad[at - 8];
  pad[at] += pad[at - 16];
  return pad[at] - value;
}

__global__ void scan_in_for_loop(unsigned* out, int passes) {
  __shared__ unsigned pad[64];
  unsigned sum = 0;
  for (int pass = 0; pass < passes; ++pass) sum += scan_warp(1, pad);
  out[threadIdx.x] = sum;
}

// Two warps; each pass ends at a barrier, from which the lanes wake one at
// a time: the first to go round again waits for the others to come up.
__global__ void scan_in_loop_ending_at_barrier(unsigned* out, int passes) {
  __shared__ unsigned pad[128];
  __shared__ unsigned warp_totals[2];
  unsigned sum = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const unsigned below = scan_warp(1, pad);
    if ((threadIdx.x & 31) == 31) warp_totals[threadIdx.x / 32] = below + 1;
    __syncthreads();
    sum += below + (threadIdx.x >= 32 ? warp_totals[0] : 0);
    __syncthreads();
  }
  out[threadIdx.x] = sum;
}

// The loop's condition reads shared memory and calls a function: lanes
// that jumped back wait for those still in the condition's call.
__device__ bool below(volatile unsigned* counter, unsigned limit) { return *counter < limit; }

__global__ void scan_in_while_loop(unsigned* out, unsigned limit) {
  __shared__ unsigned pad[64];
  __shared__ unsigned counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  unsigned sum = 0;
  while (below(&counter, limit)) {
    sum += scan_warp(threadIdx.x & 1, pad);
    if (threadIdx.x == 31) counter = counter + 1;  // every lane has read it before the next pass
  }
  out[threadIdx.x] = sum;
}

// Lanes leave a loop after different numbers of passes; the warp meets
// again after it and scans together.
__global__ void scan_after_divergent_loop(unsigned* out) {
  __shared__ unsigned pad[64];
  unsigned steps = 0;
  for (unsigned i = 0; i < threadIdx.x % 5; ++i) steps += 2;
  out[threadIdx.x] = scan_warp(steps, pad);
}

bool check(const char* name, const unsigned* out, unsigned (*expected)(unsigned thread), unsigned threads = 32) {
  int wrong = 0;
  for (unsigned thread = 0; thread < threads; ++thread) wrong += out[thread] != expected(thread);
  std::printf("%s: %s\n", name, wrong == 0 ? "PASS" : "FAIL");
  if (wrong != 0) {
    for (unsigned thread = 0; thread < threads; ++thread) std::printf(" %u/%u", out[thread], expected(thread));
    std::printf("\n");
  }
  return wrong == 0;
}

int main() {
  unsigned* out;
  cudaMallocManaged(&out, 64 * sizeof(unsigned));
  bool ok = true;
  scan_in_for_loop<<<1, 32>>>(out, 3);
  cudaDeviceSynchronize();
  ok &= check("scan in a for loop", out, [](unsigned lane) { return 3 * lane; });
  scan_in_loop_ending_at_barrier<<<1, 64>>>(out, 3);
  cudaDeviceSynchronize();
  ok &= check("scan in a loop that ends at a barrier", out, [](unsigned thread) { return 3 * thread; }, 64);
  scan_in_while_loop<<<1, 32>>>(out, 2);
  cudaDeviceSynchronize();
  ok &= check("scan in a while loop with a call in its condition", out, [](unsigned lane) { return 2 * (lane / 2); });
  scan_after_divergent_loop<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  ok &= check("scan after a loop the lanes leave apart", out, [](unsigned lane) {
    unsigned sum = 0;
    for (unsigned below = 0; below < lane; ++below) sum += 2 * (below % 5);
    return sum;
  });
  return ok ? 0 : 1;
}
