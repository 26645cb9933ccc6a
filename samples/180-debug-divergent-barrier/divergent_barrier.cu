// 180 — debugging a __syncthreads() that only some threads of a block reach.
//
// __syncthreads() waits until every thread of the block has arrived, so CUDA
// allows it inside a branch only when the whole block takes the same way.
// A common way to break that rule: put the whole body of a kernel inside a
// bounds check, `if (i < n) { ... __syncthreads() ... }`. In the last block
// of a grid that covers n elements, the threads past the end skip the
// branch, barrier included, and leave the kernel.
//
// What happens then depends on the GPU. Before sm_70 the block may hang.
// From sm_70 on, threads that have exited no longer count at a barrier, so
// the others go on, but what the exited threads would have written before
// the barrier is missing: here their entries of `partial`, which the tree
// reduction still reads. The last block's sum then includes whatever those
// shared-memory words held before: on cusim, often values of an earlier
// block; on a GPU, anything, zeros too, and then the sum comes out right and
// the bug waits for another day.
//
// cusim checks barriers on every run, with no special build: when a thread
// exits while others of its block wait at a __syncthreads (or the others
// arrive after it exited), it prints a warning on stderr naming the kernel,
// the block, the thread and the barrier's source line, and goes on as the
// GPU does. CUSIM_CHECKS=fatal turns that warning into a failed launch
// (cudaErrorLaunchFailure). Misuse a GPU does not survive (a warp shuffle
// whose lanes wait at different places, a block where every thread waits and
// none can wake the others) always ends the kernel with an error
// (docs/debugging.md, "Synchronisation checks").
//
// Run without arguments, the program uses the fixed kernel, where every
// thread stores a value (0 past the end) and reaches every barrier; with
// --buggy it runs the kernel with the barrier inside the bounds check.
// Build: cusim-cc divergent_barrier.cu -o divergent_barrier (or nvcc).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int threads_per_block = 256;

// Each block sums its elements of in (the last block has fewer than 256).
// The bug: the barriers sit inside `if (i < n)`.
__global__ void block_sum_buggy(const int* in, int n, int* sums) {
  __shared__ int partial[threads_per_block];
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i < n) {  // threads past the end skip everything below and exit...
    partial[t] = in[i];
    __syncthreads();  // ...while the others wait here
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (t < half) partial[t] += partial[t + half];  // reads entries nobody wrote in the last block
      __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
  }
}

// The fix: only the load depends on the bounds; every thread stores a value
// and reaches every barrier.
__global__ void block_sum(const int* in, int n, int* sums) {
  __shared__ int partial[threads_per_block];
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0;  // past the end: 0, which adds nothing
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();  // outside the if: the whole block reaches it
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

int main(int argc, char** argv) {
  const bool buggy = argc > 1 && std::strcmp(argv[1], "--buggy") == 0;
  const int n = 1000;  // 3 full blocks and one of 232 threads with an element
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  int *in, *sums;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&sums, blocks * sizeof(int)));
  int expected[blocks] = {};
  for (int i = 0; i < n; ++i) {
    in[i] = i % 3 + 1;
    expected[i / threads_per_block] += in[i];
  }

  if (buggy) block_sum_buggy<<<blocks, threads_per_block>>>(in, n, sums);
  else block_sum<<<blocks, threads_per_block>>>(in, n, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());  // with CUSIM_CHECKS=fatal the buggy kernel fails here

  int wrong = 0;
  for (int b = 0; b < blocks; ++b) wrong += sums[b] != expected[b];
  const int last = blocks - 1;
  std::printf("%s kernel: last block sums to %d (expected %d), %d of %d block sums wrong\n",
              buggy ? "buggy (barriers inside the bounds check)" : "fixed", sums[last], expected[last], wrong,
              blocks);
  if (!buggy) std::printf("every thread reached every barrier: %s\n", wrong == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  return wrong == 0 ? 0 : 1;
}
