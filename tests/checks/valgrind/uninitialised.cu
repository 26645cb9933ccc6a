// Device memory read before anything wrote it: compute-sanitizer's initcheck
// finds this on a GPU; under Valgrind (which follows cusim's fiber stacks)
// the branch on the unwritten value is reported with its line, and
// --track-origins=yes names the cudaMalloc that made the memory.
//   uninitialised <case>   unwritten: read cudaMalloc'd memory never written
//                          written: the same after a cudaMemset (nothing to report)
//                          shared-unwritten: read __shared__ elements no thread of
//                            the block wrote (each block's shared memory starts
//                            unwritten, whatever an earlier block left there)
//                          shared-written: every element written first
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void count_positive(const int* in, int* count) {
  if (in[threadIdx.x] > 0) atomicAdd(count, 1);
}

// Half the threads write their element of the tile; every thread then reads
// the element mirrored from its own, so threads 0-15 read what no one wrote
// (with `all_write`, nothing is unwritten). Two blocks: the second's tile
// starts unwritten again, though the first block's threads filled the bytes.
__global__ void count_mirrored(int* count, bool all_write) {
  __shared__ int tile[32];
  if (all_write || threadIdx.x >= 16) tile[threadIdx.x] = blockIdx.x + 1;
  __syncthreads();
  if (tile[31 - threadIdx.x] > 0) atomicAdd(count, 1);
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* in;
  int* count;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  if (!std::strcmp(which, "shared-unwritten") || !std::strcmp(which, "shared-written")) {
    count_mirrored<<<2, 32>>>(count, !std::strcmp(which, "shared-written"));
  } else {
    if (!std::strcmp(which, "written")) cudaMemset(in, 0, 32 * sizeof(int));
    else if (std::strcmp(which, "unwritten") != 0) return 2;
    count_positive<<<1, 32>>>(in, count);
  }
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%s: %s\n", which, cudaGetErrorName(cudaGetLastError()));
  cudaFree(in);
  cudaFree(count);
  return 0;
}
