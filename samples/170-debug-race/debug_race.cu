// 170 — debugging a data race: a tree reduction that lost a __syncthreads().
//
// The reduction of sample 030: a block's 256 threads put their values in
// shared memory, and at each step the lower half of the remaining threads
// add a partner's value from the upper half. The buggy kernel has the
// __syncthreads() after the first store, but not the one at the end of each
// step. Then nothing orders one step's writes before the next step's reads:
// thread 0 may read partial[64] at step 2 before thread 64 has added
// partial[192] into it at step 1. Two threads touch the same word, at least
// one writes, and nothing orders the two accesses: a data race.
//
// On a GPU such a kernel gives the right sum most of the time (warps often
// happen to run in step) and now and then a wrong one. cusim runs a thread
// until it waits, so here the buggy kernel is wrong nearly every time; on
// either, `cusim-cc --check=race` builds the program with ThreadSanitizer,
// which reports the two accesses with their source lines and the block and
// thread of each (docs/debugging.md).
//
// Run without arguments, the program uses the fixed kernel and checks the
// sums; with --buggy it runs the kernel without the barrier and says whether
// its sum came out wrong (exit status 1 if it did).
// Build: cusim-cc debug_race.cu -o debug_race (or nvcc);
//        cusim-cc --check=race debug_race.cu -o race, then ./race --buggy
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int threads_per_block = 256;
const int blocks = 4;

// Each block sums its 256 elements of in into sums[blockIdx.x]. The bug: no
// barrier between the steps of the loop.
__global__ void block_sum_buggy(const int* in, int* sums) {
  __shared__ int partial[threads_per_block];
  const int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();  // every value is stored before any thread reads a partner's

  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) {
      const int partner = partial[t + half];  // reads what thread t + half wrote the step before...
      partial[t] += partner;                  // ...here, with nothing in between to order the two
    }
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// The fix: a __syncthreads() at the end of each step, outside the if (every
// thread of the block must reach it).
__global__ void block_sum(const int* in, int* sums) {
  __shared__ int partial[threads_per_block];
  const int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();

  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) {
      const int partner = partial[t + half];
      partial[t] += partner;
    }
    __syncthreads();  // this step's writes come before the next step's reads
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

int main(int argc, char** argv) {
  const bool buggy = argc > 1 && std::strcmp(argv[1], "--buggy") == 0;
  const int n = blocks * threads_per_block;
  int *in, *sums;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&sums, blocks * sizeof(int)));
  int expected[blocks] = {};
  for (int i = 0; i < n; ++i) {
    in[i] = i % 5 + 1;
    expected[i / threads_per_block] += in[i];
  }

  if (buggy) block_sum_buggy<<<blocks, threads_per_block>>>(in, sums);
  else block_sum<<<blocks, threads_per_block>>>(in, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int wrong = 0;
  for (int b = 0; b < blocks; ++b) wrong += sums[b] != expected[b];
  std::printf("%s kernel: block 0 sums to %d (expected %d), %d of %d block sums wrong\n",
              buggy ? "buggy (no barrier in the loop)" : "fixed", sums[0], expected[0], wrong, blocks);
  if (buggy) {
    std::printf(wrong ? "the race changed the result\n"
                      : "the sums came out right this time: the race is there all the same (--check=race finds it)\n");
  } else {
    std::printf("tree reduction with a barrier after every step: %s\n", wrong == 0 ? "PASSED" : "FAILED");
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  return wrong == 0 ? 0 : 1;
}
