// 120 — hello world from kernels that launch kernels (dynamic parallelism).
//
// With dynamic parallelism a thread on the GPU launches a grid itself, with
// the same k<<<blocks, threads>>>(args) as the host. The grid that launches
// is the parent, the grid it launches a child; a child may launch its own
// children in turn (the nesting depth: 0 for the grid the host launched).
// In the CUDA 12 model a parent cannot wait for its children (device-side
// cudaDeviceSynchronize() is gone), but it is not complete until they are:
// the host's cudaDeviceSynchronize() waits for the whole tree. Here the host
// launches 2 blocks of 2 threads (depth 0); thread 0 of each block launches
// a child grid of 3 threads (depth 1), whose thread 0 launches a grandchild
// (depth 2).
//
// Children run in any order, at any time after their launch, so the lines
// they print may interleave differently on every run. What is certain: a
// child sees what its parent wrote before launching it, and a grid launched
// into the tail-launch stream, k<<<grid, block, 0, cudaStreamTailLaunch>>>,
// starts only after its launching grid and all that grid's work (children
// and their children) have finished. Here the tail launch says goodbye last
// and reports how many threads of each depth said hello, counted with
// atomicAdd, which the host checks.
// Build: cusim-cc hello.cu -o hello, or nvcc -arch=sm_90 -rdc=true hello.cu -lcudadevrt
// (device-side launches need relocatable device code and the device runtime).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int max_depth = 2;
__device__ int hellos[max_depth + 1];  // threads that said hello, per nesting depth

// Runs after the depth-0 grid and every grid it launched, directly or not.
__global__ void goodbye(int* seen) {
  for (int d = 0; d <= max_depth; ++d) seen[d] = hellos[d];
  printf("tail launch: goodbye, after %d + %d + %d hellos at depths 0, 1, 2\n", seen[0], seen[1], seen[2]);
}

// Every thread says hello; thread 0 of each block launches a child grid of
// one block of 3 threads, until max_depth. `family`: the depth-0 block whose
// chain of launches this grid belongs to.
__global__ void hello(int depth, int family, int* seen) {
  if (depth == 0) {
    printf("depth 0: hello from block %d, thread %d (launched by the host)\n", blockIdx.x, threadIdx.x);
  } else {
    printf("%sdepth %d: hello from block %d, thread %d (%s of depth-0 block %d)\n", depth == 1 ? "  " : "    ",
           depth, blockIdx.x, threadIdx.x, depth == 1 ? "child" : "grandchild", family);
  }
  atomicAdd(&hellos[depth], 1);
  if (threadIdx.x == 0 && depth < max_depth) {
    hello<<<1, 3>>>(depth + 1, depth == 0 ? int(blockIdx.x) : family, seen);
    // A device-side launch reports a bad configuration or too deep a nesting
    // to the launching thread, as a host-side one does.
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("depth %d: launch failed: %s\n", depth, cudaGetErrorString(err));
  }
  // One tail launch for the whole tree, from one thread of the first grid.
  if (depth == 0 && blockIdx.x == 0 && threadIdx.x == 0) goodbye<<<1, 1, 0, cudaStreamTailLaunch>>>(seen);
}

int main() {
  int* seen;
  CHECK(cudaMallocManaged(&seen, (max_depth + 1) * sizeof(int)));
  for (int d = 0; d <= max_depth; ++d) seen[d] = -1;

  // Two blocks of 2 threads; each block's thread 0 starts a chain of two more grids.
  hello<<<2, 2>>>(0, -1, seen);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());  // waits for the children and the tail launch too
  int counted[max_depth + 1];
  CHECK(cudaMemcpyFromSymbol(counted, hellos, sizeof counted));

  // Depth 0: 2 blocks x 2 threads; then one grid of 3 threads for each block
  // of the depth above: 2 grids at depth 1, 2 at depth 2.
  const int expected[max_depth + 1] = {4, 6, 6};
  bool ok = true;
  for (int d = 0; d <= max_depth; ++d) ok = ok && counted[d] == expected[d] && seen[d] == expected[d];
  std::printf("threads that said hello at depths 0, 1, 2: %d, %d, %d (the tail launch saw %d, %d, %d; expected %d, "
              "%d, %d): %s\n",
              counted[0], counted[1], counted[2], seen[0], seen[1], seen[2], expected[0], expected[1], expected[2],
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(seen));
  return ok ? 0 : 1;
}
