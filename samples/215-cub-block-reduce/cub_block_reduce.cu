// 215 — CUB: a block-wide reduction inside the program's own kernel, and a
// device-wide radix sort with CUB's two calls for temporary storage.
//
// cub::BlockReduce keeps its working space in a TempStorage the kernel
// declares __shared__; every thread of the block calls Sum, and thread 0
// gets the total. cub::DeviceRadixSort::SortPairs is called twice: first
// with no storage, to learn how much it needs, then to sort. On cusim both
// run NVIDIA's own CUB code (docs/libraries.md#cub).
#include <cub/cub.cuh>
#include <cstdio>
#include <vector>

#include "../common/check.h"

constexpr int block_threads = 256;

// out[b] = the sum of block b's values: a grid-stride loop makes each
// thread's partial sum, BlockReduce adds the block's 256.
__global__ void block_sums(const unsigned int* values, unsigned int n, unsigned long long* out) {
  using block_reduce = cub::BlockReduce<unsigned long long, block_threads>;
  __shared__ typename block_reduce::TempStorage storage;
  unsigned long long partial = 0;
  for (unsigned int i = blockIdx.x * block_threads + threadIdx.x; i < n; i += gridDim.x * block_threads) {
    partial += values[i];
  }
  const unsigned long long total = block_reduce(storage).Sum(partial);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  const unsigned int n = 1u << 16, blocks = 16;
  std::vector<unsigned int> host(n);
  for (unsigned int i = 0; i < n; ++i) host[i] = (i * 2654435761u) % n;  // a permutation of 0..n-1
  unsigned int *keys, *sorted_keys, *positions, *sorted_positions;
  unsigned long long* sums;
  CHECK(cudaMalloc(&keys, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&sorted_keys, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&positions, n * sizeof(unsigned int)));
  CHECK(cudaMalloc(&sorted_positions, n * sizeof(unsigned int)));
  CHECK(cudaMallocManaged(&sums, blocks * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(keys, host.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
  for (unsigned int i = 0; i < n; ++i) host[i] = i;
  CHECK(cudaMemcpy(positions, host.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));

  block_sums<<<blocks, block_threads>>>(keys, n, sums);
  CHECK(cudaDeviceSynchronize());
  unsigned long long total = 0;
  for (unsigned int b = 0; b < blocks; ++b) total += sums[b];

  void* storage = nullptr;
  size_t storage_bytes = 0;
  CHECK(cub::DeviceRadixSort::SortPairs(storage, storage_bytes, keys, sorted_keys, positions, sorted_positions, n));
  CHECK(cudaMalloc(&storage, storage_bytes));
  CHECK(cub::DeviceRadixSort::SortPairs(storage, storage_bytes, keys, sorted_keys, positions, sorted_positions, n));
  std::vector<unsigned int> sorted(n), origin(n);
  CHECK(cudaMemcpy(sorted.data(), sorted_keys, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(origin.data(), sorted_positions, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));

  bool ok = total == static_cast<unsigned long long>(n) * (n - 1) / 2;
  for (unsigned int i = 0; i < n && ok; ++i) ok = sorted[i] == i && (origin[i] * 2654435761u) % n == i;
  // (How much temporary storage the sort takes depends on CUB's version.)
  printf("the %u blocks' sums add up to %llu; key 4321 came from position %u\n", blocks, total, origin[4321]);
  printf(ok ? "PASSED\n" : "FAILED\n");
  CHECK(cudaFree(storage));
  return ok ? 0 : 1;
}
