// A cooperative grid as large as the GPU holds: multiProcessorCount x the
// occupancy of 1024-thread blocks (on the sm_90 profile 132 x 2 blocks,
// 270 336 threads), every thread parked at grid.sync() at once, as
// conjugateGradientMultiBlockCG does. Each thread needs a stack of its own,
// more than the system's limit on memory mappings leaves guard pages for
// (src/fiber/stack.hpp). A grid-wide reduction, and each thread reading
// what a thread of another block wrote before the sync; the peak memory is
// printed and bounded.
#include <sys/resource.h>

#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void reduce(const int* in, int n, unsigned long long* partial, unsigned long long* total,
                       unsigned int* slots, unsigned int* errors) {
  cg::grid_group grid = cg::this_grid();
  __shared__ unsigned long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  unsigned long long mine = 0;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.num_threads()) {
    mine += in[i];
  }
  atomicAdd(&block_sum, mine);
  const unsigned long long me = grid.thread_rank();
  slots[me] = static_cast<unsigned int>(me * 3 + 1);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
  grid.sync();
  const unsigned long long other = (me + blockDim.x) % grid.num_threads();  // the next block's
  if (slots[other] != static_cast<unsigned int>(other * 3 + 1)) atomicAdd(errors, 1u);
  if (me == 0) {
    unsigned long long sum = 0;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce, 1024, 0);
  const int blocks = prop.multiProcessorCount * per_sm;
  const int n = 1 << 22;
  int* in = nullptr;
  unsigned long long *partial = nullptr, *total = nullptr;
  unsigned int *slots = nullptr, *errors = nullptr;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&partial, blocks * sizeof(unsigned long long));
  cudaMallocManaged(&total, sizeof(unsigned long long));
  cudaMallocManaged(&slots, static_cast<std::size_t>(blocks) * 1024 * sizeof(unsigned int));
  cudaMallocManaged(&errors, sizeof(unsigned int));
  unsigned long long want = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 7;
    want += i % 7;
  }
  *errors = 0;
  void* args[] = {&in, const_cast<int*>(&n), &partial, &total, &slots, &errors};
  const cudaError_t launched = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(reduce), blocks, 1024, args);
  const cudaError_t finished = cudaDeviceSynchronize();
  // One block more than fits is refused, as on a GPU.
  const cudaError_t too_large = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(reduce), blocks + 1, 1024, args);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("%d blocks of 1024 threads: launch %s, synchronise %s, total %llu (expected %llu), %u wrong reads\n",
              blocks, cudaGetErrorName(launched), cudaGetErrorName(finished), *total, want, *errors);
  std::printf("one block more: %s\n", cudaGetErrorName(too_large));
  // About 1.4 GB on x86-64 Linux: 5 KiB a parked thread, mostly its stack's
  // top page and its fiber.
  const long peak_mib = usage.ru_maxrss / 1024;
  std::printf("peak memory %s\n", peak_mib < 3072 ? "bounded (under 3 GiB)" : "over 3 GiB");
  std::fprintf(stderr, "peak memory %ld MiB\n", peak_mib);
  const bool passed = launched == cudaSuccess && finished == cudaSuccess && *total == want && *errors == 0 &&
                      too_large == cudaErrorCooperativeLaunchTooLarge && peak_mib < 3072;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
