// Collectives of disjoint sub-groups of one warp while its other lanes wait
// elsewhere, legal from sm_70 on (NVIDIA's binaryPartitionCG): each
// collective completes when the lanes its mask names have arrived.
//   disjoint_masks SEED   random per-lane predicates from SEED
// 1. cg::binary_partition of each warp by a random predicate; each half
//    reduces with its own mask in its own branch, then the tile syncs.
// 2. The same with the intrinsics: the odd lanes __reduce_add_sync, the
//    even ones __shfl_sync, each with its half's mask, then __syncwarp().
// 3. Sparse masks in sequence: the lanes of 0x80100209 __ballot_sync then
//    __all_sync with that mask while the rest wait at __syncwarp().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int blocks = 4, threads = 128;
constexpr unsigned int sparse = 0x80100209u;

__host__ __device__ unsigned int mix(unsigned int seed, unsigned int i) {
  unsigned int x = seed * 0x9e3779b9u ^ (i + 0x7f4a7c15u) * 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16);
}

__global__ void partitions(unsigned int seed, int* halves, int* intrinsics, unsigned long long* votes) {
  const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % 32;
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const bool pred = (mix(seed, id) & 1u) != 0;
  auto half = cg::binary_partition(tile, pred);
  int sum;
  if (pred) sum = cg::reduce(half, static_cast<int>(lane) + 1, cg::plus<int>());
  else sum = cg::reduce(half, 10 * (static_cast<int>(lane) + 1), cg::plus<int>());
  tile.sync();
  halves[id] = sum;

  int value;
  if (lane & 1u) value = static_cast<int>(__reduce_add_sync(0xaaaaaaaau, lane));
  else value = __shfl_sync(0x55555555u, static_cast<int>(lane) * 3, 2);
  __syncwarp();
  intrinsics[id] = value;

  unsigned long long vote = 0;
  if ((sparse >> lane) & 1u) {
    const bool mine = (mix(seed + 1, id) & 1u) != 0;
    const unsigned long long ballot = __ballot_sync(sparse, mine);
    vote = ballot | (__all_sync(sparse, mine) ? 1ull << 32 : 0ull) | (__any_sync(sparse, mine) ? 1ull << 33 : 0ull);
  }
  __syncwarp();
  votes[id] = vote;
}

int main(int argc, char** argv) {
  const unsigned int seed = argc > 1 ? static_cast<unsigned int>(std::strtoul(argv[1], nullptr, 10)) : 1;
  const int n = blocks * threads;
  int *halves = nullptr, *intrinsics = nullptr;
  unsigned long long* votes = nullptr;
  cudaMallocManaged(&halves, n * sizeof(int));
  cudaMallocManaged(&intrinsics, n * sizeof(int));
  cudaMallocManaged(&votes, n * sizeof(unsigned long long));
  partitions<<<blocks, threads>>>(seed, halves, intrinsics, votes);
  const cudaError_t status = cudaDeviceSynchronize();
  int wrong = 0;
  for (int warp = 0; warp < n / 32; ++warp) {
    int sum_true = 0, sum_false = 0;
    unsigned int ballot = 0;
    for (unsigned int lane = 0; lane < 32; ++lane) {
      const unsigned int id = warp * 32 + lane;
      if (mix(seed, id) & 1u) sum_true += static_cast<int>(lane) + 1;
      else sum_false += 10 * (static_cast<int>(lane) + 1);
      if (((sparse >> lane) & 1u) && (mix(seed + 1, id) & 1u)) ballot |= 1u << lane;
    }
    const unsigned long long vote =
        ballot | (ballot == sparse ? 1ull << 32 : 0ull) | (ballot != 0 ? 1ull << 33 : 0ull);
    for (unsigned int lane = 0; lane < 32; ++lane) {
      const unsigned int id = warp * 32 + lane;
      const int half = (mix(seed, id) & 1u) ? sum_true : sum_false;
      const int intrinsic = (lane & 1u) ? 16 * 16 : 2 * 3;  // the odd lanes' sum 1+3+...+31; lane 2's value
      const unsigned long long expected_vote = ((sparse >> lane) & 1u) ? vote : 0ull;
      if (halves[id] != half || intrinsics[id] != intrinsic || votes[id] != expected_vote) ++wrong;
    }
  }
  std::printf("seed %u: %s, %d of %d threads wrong\n", seed, cudaGetErrorName(status), wrong, n);
  std::printf("%s\n", status == cudaSuccess && wrong == 0 ? "PASSED" : "FAILED");
  return status == cudaSuccess && wrong == 0 ? 0 : 1;
}
