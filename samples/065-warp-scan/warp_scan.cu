// 065 — inclusive prefix sum (scan): within a warp by shuffles, then across a block's warps.
//
// An inclusive scan turns x0, x1, x2, ... into x0, x0+x1, x0+x1+x2, ...
// Within a warp, __shfl_up_sync(mask, v, d) gives each lane the value v of
// the lane d places below it (a lane below d gets its own v back, and must
// not add it). Five steps with d = 1, 2, 4, 8, 16 scan 32 values: after the
// step with d, each lane holds the sum of the 2d values ending at itself
// (fewer near lane 0).
//
//   lane:   0     1       2       3       4      ...   (xa..b: xa + ... + xb)
//   input:  x0    x1      x2      x3      x4
//   d = 1:  x0    x0..1   x1..2   x2..3   x3..4
//   d = 2:  x0    x0..1   x0..2   x0..3   x1..4
//   d = 4:  x0    x0..1   x0..2   x0..3   x0..4      (and so on to d = 16)
//
// Every lane calls the shuffle (the mask 0xffffffff names all 32); only the
// addition depends on the lane. A block of 256 threads is 8 warps, each with
// its own scan. To join them, lane 31 of each warp (which holds its warp's
// total) writes it to shared memory; after __syncthreads warp 0 scans those
// 8 totals with the same function; after a second __syncthreads each warp
// adds the total of the warps before it. Each block scans its own 256
// elements here (a scan of a whole array would scan the blocks' totals in
// turn and add them: a third level of the same idea). The host checks every
// block's result with a plain running sum.
// Build: cusim-cc warp_scan.cu -o warp_scan (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const unsigned full_warp = 0xffffffffu;
const int threads_per_block = 256;  // a multiple of 32, at most 32 warps
const int blocks = 8;

// The inclusive scan of value over the 32 lanes of the calling warp.
__device__ int warp_inclusive_scan(int value) {
  const int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    const int below = __shfl_up_sync(full_warp, value, d);  // every lane shuffles...
    if (lane >= d) value += below;                          // ...lanes 0..d-1 have nothing below
  }
  return value;
}

__global__ void block_scan(const int* in, int* out) {
  __shared__ int warp_totals[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int warps = blockDim.x / warpSize;

  int sum = warp_inclusive_scan(in[i]);              // 1. within each warp
  if (lane == warpSize - 1) warp_totals[warp] = sum;  // the last lane holds the warp's total
  __syncthreads();

  if (warp == 0) {  // 2. warp 0 scans the warps' totals (lanes past the last warp scan zeros)
    const int total = lane < warps ? warp_totals[lane] : 0;
    warp_totals[lane] = warp_inclusive_scan(total);
  }
  __syncthreads();

  if (warp > 0) sum += warp_totals[warp - 1];  // 3. add the totals of every warp before this one
  out[i] = sum;
}

int main() {
  const int n = blocks * threads_per_block;
  int* in;
  int* out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(int)));
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 10 - 3;  // small values, some negative

  block_scan<<<blocks, threads_per_block>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int running = 0;  // the host's scan of block b's elements
    for (int t = 0; t < threads_per_block; ++t) {
      const int i = b * threads_per_block + t;
      running += in[i];
      if (out[i] != running) ++wrong;
    }
  }
  std::printf("first block: %d %d %d %d ... %d\n", out[0], out[1], out[2], out[3], out[threads_per_block - 1]);
  std::printf("inclusive scans of %d blocks of %d integers: %d wrong: %s\n", blocks, threads_per_block, wrong,
              wrong == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return wrong == 0 ? 0 : 1;
}
