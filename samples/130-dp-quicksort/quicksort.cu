// 130 — quicksort by recursion on the GPU: each half of a range sorted by its own child grid.
//
// Quicksort is recursive: partition a range around a pivot, then sort the
// part below it and the part above it independently. With dynamic
// parallelism the recursion can stay on the GPU: a grid of one thread
// partitions data[left..right] and launches two child grids, one for each
// part, which do the same. (This follows NVIDIA's cdpSimpleQuicksort: simple
// rather than fast, since one thread partitions a whole range.)
//
// Streams: launches from one block into the default stream run one after
// another, so the two halves would be sorted in turn. Each child is launched
// into its own stream, made with cudaStreamCreateWithFlags(&s,
// cudaStreamNonBlocking) (device code may only create non-blocking streams),
// so the two may run at the same time. cudaStreamDestroy(s) right after the
// launch is fine: the stream is released once its work is done, and the
// launched grid still runs. In the CUDA 12 model the parent cannot wait for
// its children, and need not: it is complete only when they are, so the
// host's cudaDeviceSynchronize() returns when the whole tree has sorted.
//
// Launches nest at most 24 deep (cudaErrorLaunchMaxDepthExceeded beyond), and
// a launch costs more than sorting a few values. So at depth max_depth, and
// for ranges of selection_sort_limit values or fewer, the thread sorts its
// range itself with a selection sort. The program counts the grids at each
// depth with atomicAdd, and checks the result against the host's std::sort.
// Build: cusim-cc quicksort.cu -o quicksort, or nvcc -arch=sm_90 -rdc=true quicksort.cu -lcudadevrt
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int max_depth = 16;
const int selection_sort_limit = 32;

__device__ int grids_at_depth[max_depth + 1];  // quicksort grids that ran, per nesting depth
__device__ int small_sorts, cutoff_sorts;      // ranges sorted by selection sort: small ones, and at max_depth
__device__ int largest_sorted;                 // the most values one selection sort had
__device__ int device_errors;                  // failed stream creations or launches

// Sorts data[left..right] (inclusive) in place: the smallest remaining value to the front, each time.
__device__ void selection_sort(int* data, int left, int right) {
  for (int i = left; i < right; ++i) {
    int min_index = i;
    for (int j = i + 1; j <= right; ++j)
      if (data[j] < data[min_index]) min_index = j;
    const int tmp = data[i];
    data[i] = data[min_index];
    data[min_index] = tmp;
  }
}

// Launches quicksort on data[left..right] into a stream of its own.
__global__ void quicksort(int* data, int left, int right, int depth);
__device__ void launch_child(int* data, int left, int right, int depth) {
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
    atomicAdd(&device_errors, 1);
    return;
  }
  quicksort<<<1, 1, 0, s>>>(data, left, right, depth);
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&device_errors, 1);
  cudaStreamDestroy(s);  // released when the child has finished
}

// One thread: partitions data[left..right] around its middle value, then
// launches a child grid for each part that holds more than one element.
__global__ void quicksort(int* data, int left, int right, int depth) {
  atomicAdd(&grids_at_depth[depth], 1);
  if (depth >= max_depth || right - left < selection_sort_limit) {
    atomicAdd(depth >= max_depth ? &cutoff_sorts : &small_sorts, 1);
    atomicMax(&largest_sorted, right - left + 1);
    selection_sort(data, left, right);
    return;
  }
  // Hoare's partition: walk in from both ends, swapping pairs on the wrong side.
  const int pivot = data[left + (right - left) / 2];
  int lo = left, hi = right;
  while (lo <= hi) {
    while (data[lo] < pivot) ++lo;
    while (data[hi] > pivot) --hi;
    if (lo <= hi) {
      const int tmp = data[lo];
      data[lo++] = data[hi];
      data[hi--] = tmp;
    }
  }
  // Now data[left..hi] <= pivot <= data[lo..right] (and lo > hi).
  if (left < hi) launch_child(data, left, hi, depth + 1);
  if (lo < right) launch_child(data, lo, right, depth + 1);
}

int main() {
  const int n = 4096;
  int* data;
  CHECK(cudaMallocManaged(&data, n * sizeof(int)));
  std::mt19937 random(2024);  // a fixed seed: the same numbers every run
  std::vector<int> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = data[i] = int(random() % 100000);
  std::sort(expected.begin(), expected.end());

  quicksort<<<1, 1>>>(data, 0, n - 1, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());  // the whole tree of launches has finished

  int grids[max_depth + 1], small = 0, cutoff = 0, largest = 0, errors = 0;
  CHECK(cudaMemcpyFromSymbol(grids, grids_at_depth, sizeof grids));
  CHECK(cudaMemcpyFromSymbol(&small, small_sorts, sizeof small));
  CHECK(cudaMemcpyFromSymbol(&cutoff, cutoff_sorts, sizeof cutoff));
  CHECK(cudaMemcpyFromSymbol(&largest, largest_sorted, sizeof largest));
  CHECK(cudaMemcpyFromSymbol(&errors, device_errors, sizeof errors));
  int total = 0, deepest = 0;
  std::printf("quicksort grids per nesting depth:");
  for (int d = 0; d <= max_depth; ++d) {
    if (grids[d] == 0) continue;
    std::printf(" %d:%d", d, grids[d]);
    total += grids[d];
    deepest = d;
  }
  std::printf("\n%d grids in all, %d deep at most; selection sort of %d ranges of up to %d values and %d at depth %d "
              "(the largest: %d values)\n",
              total, deepest, small, selection_sort_limit, cutoff, max_depth, largest);

  // Sorted and a permutation of the input: equal to the host's sort of it.
  bool sorted = true;
  for (int i = 1; i < n; ++i) sorted = sorted && data[i - 1] <= data[i];
  const bool same_values = std::equal(expected.begin(), expected.end(), data);
  const bool ok = sorted && same_values && errors == 0;
  std::printf("sorted %d random integers: first %d %d %d, last %d; %s, %s, %d device-side errors: %s\n", n, data[0],
              data[1], data[2], data[n - 1], sorted ? "in order" : "NOT in order",
              same_values ? "a permutation of the input" : "NOT the input's values", errors,
              ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(data));
  return ok ? 0 : 1;
}
