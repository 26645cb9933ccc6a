// Generated differential cases: thread-block clusters and distributed
// shared memory.
//   clusters SEED CASES
// Each case is one launch (cudaLaunchKernelEx with a cluster dimension) of
// a random grid of clusters of a random shape (1 to 8 blocks, in x and y)
// and block size. Each thread fills its block's shared array, the cluster
// syncs, and each thread reads rounds of elements of other blocks' arrays
// (map_shared_rank at a random rank step and index stride), writing some
// back into them between cluster syncs, and prints its cluster coordinates.
// Each block prints a hash of its threads' results. The golden comes from
// an H100 (tests/differential.txt); random_cases.hpp draws the cases.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>

#include "bits.hpp"
#include "random_cases.hpp"

namespace cg = cooperative_groups;

constexpr int rounds = 3;
struct cluster_case {
  unsigned rank_step[rounds], index_stride[rounds], writes[rounds];
  unsigned seed;
};

__global__ void run_case(cluster_case c, unsigned* results) {
  extern __shared__ unsigned cells[];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned threads = blockDim.x, t = threadIdx.x;
  const unsigned block = blockIdx.x + blockIdx.y * gridDim.x;
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  unsigned v = mix(c.seed ^ (block * 1024 + t));
  cells[t] = v;
  unsigned* out = results + (block * threads + t) * (rounds + 1);
  const dim3 index = cluster.block_index(), shape = cluster.dim_blocks();
  out[0] = rank << 24 | size << 16 | index.x << 12 | index.y << 8 | shape.x << 4 | shape.y;
  out[0] ^= cluster.thread_rank() * 0x9e3779b9u ^ cluster.num_threads() << 20;
  cluster.sync();
  for (int k = 0; k < rounds; ++k) {
    const unsigned peer = (rank + c.rank_step[k]) % size;
    unsigned* remote = cluster.map_shared_rank(cells, peer);
    const unsigned read = remote[(t * c.index_stride[k] + k) % threads];
    v = mix(v ^ read);
    out[k + 1] = read;
    cluster.sync();  // every read of this round is done before anyone writes
    if (c.writes[k] && t % c.writes[k] == 0) atomicAdd(&remote[t], v & 0xff);
    cluster.sync();
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  std::printf("clusters, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  unsigned* device_results;
  const size_t most_threads = 64 * 256;  // clusters of at most 8 blocks, 8 clusters
  cudaMalloc(&device_results, most_threads * (rounds + 1) * sizeof(unsigned));
  std::vector<unsigned> results(most_threads * (rounds + 1));
  for (unsigned n = 0; n < count; ++n) {
    const unsigned shapes[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {4, 2}, {2, 4}, {8, 1}, {3, 1}, {1, 3}};
    const unsigned* shape = shapes[r.below(sizeof shapes / sizeof shapes[0])];
    const unsigned clusters_x = 1 + r.below(4), clusters_y = 1 + r.below(2);
    const unsigned threads = 32 * (1 + r.below(8));
    cluster_case c{};
    for (int k = 0; k < rounds; ++k) {
      c.rank_step[k] = r.below(9);
      c.index_stride[k] = 1 + r.below(7);
      c.writes[k] = r.chance(50) ? 1u << r.below(4) : 0;
    }
    c.seed = r.next32();
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(shape[0] * clusters_x, shape[1] * clusters_y);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = threads * sizeof(unsigned);
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = shape[0];
    attribute.val.clusterDim.y = shape[1];
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    const cudaError_t launched = cudaLaunchKernelEx(&config, run_case, c, device_results);
    const unsigned blocks = config.gridDim.x * config.gridDim.y;
    const cudaError_t copied = cudaMemcpy(results.data(), device_results, blocks * threads * (rounds + 1) * sizeof(unsigned),
                                          cudaMemcpyDeviceToHost);
    std::printf("case %u: clusters %ux%u of %ux%u blocks of %u threads: launch %s, copy %s:", n, clusters_x,
                clusters_y, shape[0], shape[1], threads, cudaGetErrorName(launched), cudaGetErrorName(copied));
    for (unsigned b = 0; b < blocks; ++b) {
      const size_t per_block = size_t(threads) * (rounds + 1);
      std::printf(" %08x", generated::hash_of(&results[b * per_block], per_block));
    }
    std::printf("\n");
  }
  return 0;
}
