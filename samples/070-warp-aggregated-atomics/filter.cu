// 070 — keep the positive elements of an array, with warp-aggregated atomics.
//
// Each thread that keeps an element needs a free slot in the output: an
// atomicAdd on a counter gives it one. When every thread does that, the
// threads of a warp queue up on one address. Instead, the warp agrees first:
//   1. __ballot_sync: a 32-bit mask of the lanes that keep an element;
//   2. the lowest of those lanes (the leader) reserves __popc(mask) slots at
//      once with a single atomicAdd;
//   3. __shfl_sync hands the leader's first slot to every lane, and each lane
//      takes first + (how many keeping lanes are below it).
// One atomic per warp instead of up to 32, and the kept elements of a warp
// land next to each other. The order between warps is whatever order their
// atomics ran in, so the check sorts nothing: it counts and sums.
// Build: cusim-cc filter.cu -o filter (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

__device__ int reserve_slot(bool keep, int* counter) {
  const unsigned full = 0xffffffffu;
  const unsigned keepers = __ballot_sync(full, keep);  // every lane calls it, keeping or not
  const int lane = threadIdx.x % warpSize;
  const int leader = __ffs(keepers) - 1;                // -1 when no lane keeps anything
  int first = 0;
  if (lane == leader) first = atomicAdd(counter, __popc(keepers));
  first = __shfl_sync(full, first, leader < 0 ? 0 : leader);
  const unsigned below = keepers & ((1u << lane) - 1);  // keeping lanes before this one
  return first + __popc(below);
}

__global__ void keep_positive(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // n is a multiple of the block size: no thread skips
  const bool keep = in[i] > 0;
  const int slot = reserve_slot(keep, count);
  if (keep) out[slot] = in[i];
}

int main() {
  const int n = 1 << 16;
  int *in, *out, *count;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(int)));
  CHECK(cudaMallocManaged(&count, sizeof(int)));
  int kept = 0;
  long long kept_sum = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7919) % 201 - 100;  // -100..100, about half positive
    if (in[i] > 0) {
      ++kept;
      kept_sum += in[i];
    }
  }
  *count = 0;
  keep_positive<<<n / 256, 256>>>(in, n, out, count);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long sum = 0;
  for (int i = 0; i < *count; ++i) sum += out[i];
  const bool ok = *count == kept && sum == kept_sum;
  std::printf("kept %d of %d elements (expected %d), sum %lld (expected %lld): %s\n", *count, n, kept, sum, kept_sum,
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(count));
  return ok ? 0 : 1;
}
