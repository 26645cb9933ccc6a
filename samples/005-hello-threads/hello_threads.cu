// 005 — hello from threads: blocks, threads and each thread's global index.
//
// A launch kernel<<<blocks, threads_per_block>>>(...) runs the kernel once for
// every thread of a grid of blocks. All threads run the same code; what tells
// them apart is where they stand:
//   blockIdx.x   which block the thread is in (0 .. gridDim.x - 1)
//   threadIdx.x  which thread it is within its block (0 .. blockDim.x - 1)
//   blockDim.x   how many threads a block has
// blockIdx.x * blockDim.x + threadIdx.x numbers the threads of the whole
// grid 0, 1, 2, ...: the global index, which later samples use to give each
// thread an element of its own.
//
// printf works in device code, which helps to see what runs where. But
// nothing orders the lines of different threads: blocks run in any order
// (block 1 may print before block 0, and a GPU runs many blocks at once), so
// never rely on the order of a kernel's output. The check below does not:
// each thread writes its global index into its own element of an array, and
// the host reads the array back after the kernel.
// Build: cusim-cc hello_threads.cu -o hello_threads (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int blocks = 2;
const int threads_per_block = 4;

__global__ void hello(int* global_index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  printf("hello from block %d, thread %d: global index %d of %d\n", blockIdx.x, threadIdx.x, i,
         gridDim.x * blockDim.x);
  global_index[i] = i;  // every thread writes its own element: no two threads share one
}

int main() {
  const int n = blocks * threads_per_block;
  int* d_index;
  CHECK(cudaMalloc(&d_index, n * sizeof(int)));
  CHECK(cudaMemset(d_index, 0xff, n * sizeof(int)));  // -1 everywhere: an element nobody wrote shows

  hello<<<blocks, threads_per_block>>>(d_index);
  CHECK(cudaGetLastError());       // was the launch itself valid?
  CHECK(cudaDeviceSynchronize());  // wait for the kernel (and its printf output)

  int index[n];
  CHECK(cudaMemcpy(index, d_index, sizeof index, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && index[i] == i;
  std::printf("%d threads in %d blocks of %d each wrote their global index: %s\n", n, blocks, threads_per_block,
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(d_index));
  return ok ? 0 : 1;
}
