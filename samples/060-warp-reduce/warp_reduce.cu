// 060 — sum a large array with warp shuffles and one atomic per warp.
//
// A warp is 32 threads of a block (threads 0-31, 32-63, ...) that the GPU
// runs together. __shfl_down_sync(mask, v, d) gives each lane the value v of
// the lane d places above it, without shared memory or __syncthreads. Five
// steps (d = 16, 8, 4, 2, 1) fold 32 values into lane 0:
//
//   lane:      0    1    2   ...  15   16  ...  31
//   d = 16:  v0+v16 v1+v17 ...  v15+v31  (lanes 16-31 now hold partial junk)
//   d = 8:   lanes 0-7 add lanes 8-15, and so on, until lane 0 holds all 32.
//
// The mask 0xffffffff says all 32 lanes take part, so every lane must call
// the shuffle (no lane may skip it inside an `if`). Each thread first adds up
// its share of the input with a grid-stride loop, so any grid size covers any
// input size. Lane 0 of each warp then adds the warp's sum to the total with
// one atomicAdd: 32 times fewer atomics than one per thread.
// Build: cusim-cc warp_reduce.cu -o warp_reduce (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const unsigned full_warp = 0xffffffffu;

__device__ int warp_sum(int value) {
  for (int delta = 16; delta > 0; delta /= 2) value += __shfl_down_sync(full_warp, value, delta);
  return value;  // complete in lane 0
}

__global__ void sum(const int* input, int n, unsigned long long* total) {
  int partial = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) partial += input[i];
  const int warp_total = warp_sum(partial);
  if (threadIdx.x % warpSize == 0) atomicAdd(total, (unsigned long long)warp_total);
}

int main() {
  const int n = 1 << 20;
  int* input;
  unsigned long long* total;
  CHECK(cudaMallocManaged(&input, n * sizeof(int)));
  CHECK(cudaMallocManaged(&total, sizeof *total));
  unsigned long long expected = 0;
  for (int i = 0; i < n; ++i) {
    input[i] = i % 1000;
    expected += i % 1000;
  }
  *total = 0;
  sum<<<64, 256>>>(input, n, total);  // 64 blocks of 8 warps, each thread summing 64 elements first
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = *total == expected;
  std::printf("warp-shuffle sum of %d integers: %llu (expected %llu): %s\n", n, *total, expected,
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(input));
  CHECK(cudaFree(total));
  return ok ? 0 : 1;
}
