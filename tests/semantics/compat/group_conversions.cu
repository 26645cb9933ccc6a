// Every cooperative group converts to cg::thread_group, by value and by
// reference, and a helper written against thread_group acts on the group it
// was given (issue 32): its thread_rank, size and sync are the group's.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

// Each thread writes its rank and the group's size; the group syncs between.
__device__ void record_by_reference(const cg::thread_group& group, int* rank, int* size) {
  rank[threadIdx.x] = static_cast<int>(group.thread_rank());
  group.sync();
  size[threadIdx.x] = static_cast<int>(group.size());
}
__device__ void record_by_value(cg::thread_group group, int* rank, int* size) {
  record_by_reference(group, rank, size);
}

// A generic reduction over shared memory, as cuda-samples' reductions write it.
__device__ int sum_over(cg::thread_group group, int* scratch, int value) {
  const unsigned int rank = group.thread_rank();
  scratch[rank] = value;
  group.sync();
  for (unsigned int half = group.size() / 2; half > 0; half /= 2) {
    if (rank < half) scratch[rank] += scratch[rank + half];
    group.sync();
  }
  const int total = scratch[0];
  group.sync();
  return total;
}

constexpr int threads = 128;

// block.sync() between the steps: lanes that leave one tile's sync early
// reach the next group's sync while others are still in the first, which CUDA
// allows and cusim's engine does not yet follow (issue 34).
__global__ void groups(int* rank, int* size, int* sums) {
  __shared__ int scratch[threads];
  cg::thread_block block = cg::this_thread_block();
  const int row = threads;
  record_by_reference(block, rank + 0 * row, size + 0 * row);
  record_by_value(block, rank + 1 * row, size + 1 * row);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  record_by_value(warp, rank + 2 * row, size + 2 * row);
  block.sync();
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  record_by_reference(eight, rank + 3 * row, size + 3 * row);
  block.sync();
  cg::thread_group dynamic = cg::tiled_partition(block, 16);
  record_by_reference(dynamic, rank + 4 * row, size + 4 * row);
  block.sync();
  cg::thread_group wide = cg::tiled_partition(block, 64);  // tiles of 64 only through the dynamic form, as in CUDA
  record_by_value(wide, rank + 5 * row, size + 5 * row);
  block.sync();
  if (threadIdx.x % 2 == 0) {
    cg::coalesced_group even = cg::coalesced_threads();
    record_by_reference(even, rank + 6 * row, size + 6 * row);
  }
  sums[threadIdx.x] = sum_over(block, scratch, 1);
}

int main() {
  int *rank, *size, *sums;
  cudaMallocManaged(&rank, 7 * threads * sizeof(int));
  cudaMallocManaged(&size, 7 * threads * sizeof(int));
  cudaMallocManaged(&sums, threads * sizeof(int));
  groups<<<1, threads>>>(rank, size, sums);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  const int group_size[6] = {threads, threads, 32, 8, 16, 64};
  for (int t = 0; t < threads && ok; ++t) {
    for (int g = 0; g < 6; ++g) {
      ok = ok && rank[g * threads + t] == t % group_size[g] && size[g * threads + t] == group_size[g];
    }
    if (t % 2 == 0) ok = ok && rank[6 * threads + t] == (t % 32) / 2 && size[6 * threads + t] == 16;
    ok = ok && sums[t] == threads;
  }
  std::printf("ranks of thread 37: block %d tile32 %d tile8 %d dynamic16 %d tile64 %d; block sum %d\n%s\n",
              rank[37], rank[2 * threads + 37], rank[3 * threads + 37], rank[4 * threads + 37],
              rank[5 * threads + 37], sums[0], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
