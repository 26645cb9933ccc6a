// Thread-block clusters (sm_90): __cluster_dims__ and cudaLaunchKernelEx's
// cluster attribute in 1D, 2D and 3D; cluster_group's ranks and shapes; the
// cluster barrier (sync, and split arrive/wait); distributed shared memory
// through map_shared_rank, with atomics; query_shared_rank; the launch
// errors of misshapen clusters; the occupancy queries.
//   clusters           the checks above
//   clusters exited    a block maps a peer's shared memory after the peer exited: reported
#include <cstdio>
#include <cstring>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

struct shape_report {
  unsigned rank, blocks, threads, thread_rank, index_x, index_y, index_z, dims_x, dims_y, dims_z, query;
  int neighbour;
};

// Each block publishes its rank in shared memory; after cluster.sync() every
// block reads its neighbour's, and adds one to a counter in rank 0's memory.
__global__ void exchange(shape_report* out) {
  __shared__ int mine;
  __shared__ int counter;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) {
    mine = 1000 + int(rank);
    counter = 0;
  }
  cluster.sync();
  int* neighbour = cluster.map_shared_rank(&mine, (rank + 1) % cluster.num_blocks());
  int* first_counter = cluster.map_shared_rank(&counter, 0);
  atomicAdd(first_counter, 1);
  const unsigned long long block = blockIdx.x + gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  if (threadIdx.x == 0) {
    const dim3 index = cluster.block_index(), dims = cluster.dim_blocks();
    out[block] = {rank, cluster.num_blocks(), cluster.num_threads(), cluster.thread_rank(), index.x, index.y, index.z,
                  dims.x, dims.y, dims.z, cluster.query_shared_rank(neighbour), *neighbour};
  }
  // Split barrier: arrive, do independent work, then wait.
  auto token = cluster.barrier_arrive();
  cluster.barrier_wait(std::move(token));
  if (rank == 0 && threadIdx.x == 0) out[block].neighbour += 100000 * counter;  // every thread of the cluster counted
  cluster.sync();  // no block exits while another may still read its shared memory
}

__global__ void __cluster_dims__(2, 1, 1) pairs(int* out) {
  __shared__ int value;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) value = int(blockIdx.x) * 10;
  cluster.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = *cluster.map_shared_rank(&value, cluster.block_rank() ^ 1);
  cluster.sync();
}

__global__ void reads_after_exit(int* out) {
  __shared__ int value;
  cg::cluster_group cluster = cg::this_cluster();
  value = 7;
  cluster.sync();
  if (cluster.block_rank() == 1) return;  // no final cluster.sync(): block 1 may be gone
  for (int i = 0; i < 1000; ++i) __nanosleep(1000);
  out[0] = *cluster.map_shared_rank(&value, 1);
}

__global__ void empty_kernel() {}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

cudaError_t launch_with_cluster(void (*kernel)(shape_report*), dim3 grid, dim3 block, dim3 cluster,
                                shape_report* out) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster.x;
  attribute.val.clusterDim.y = cluster.y;
  attribute.val.clusterDim.z = cluster.z;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, out);
}

void check_shape(dim3 grid, dim3 cluster, shape_report* out) {
  const dim3 block(64);
  const unsigned blocks = grid.x * grid.y * grid.z, size = cluster.x * cluster.y * cluster.z;
  std::memset(out, 0, sizeof(shape_report) * blocks);
  expect("cluster launch", launch_with_cluster(exchange, grid, block, cluster, out), cudaSuccess);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) {
        const shape_report& r = out[x + grid.x * (y + grid.y * z)];
        const unsigned ix = x % cluster.x, iy = y % cluster.y, iz = z % cluster.z;
        const unsigned rank = ix + cluster.x * (iy + cluster.y * iz);
        expect("block_rank", r.rank, rank);
        expect("num_blocks", r.blocks, size);
        expect("num_threads", r.threads, size * block.x);
        expect("thread_rank of thread 0", r.thread_rank, rank * block.x);
        expect("block_index", r.index_x * 100 + r.index_y * 10 + r.index_z, ix * 100 + iy * 10 + iz);
        expect("dim_blocks", r.dims_x * 100 + r.dims_y * 10 + r.dims_z, cluster.x * 100 + cluster.y * 10 + cluster.z);
        expect("query_shared_rank", r.query, (rank + 1) % size);
        expect("neighbour's shared value (and rank 0's counter)", r.neighbour,
               1000 + (rank + 1) % size + (rank == 0 ? 100000ll * size * block.x : 0));
      }
    }
  }
}

int main(int argc, char** argv) {
  shape_report* out;
  cudaMallocManaged(&out, sizeof(shape_report) * 64);
  if (argc > 1 && std::strcmp(argv[1], "exited") == 0) {
    int* value;
    cudaMallocManaged(&value, sizeof(int));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(32);
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 2;
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, reads_after_exit, value);
    std::printf("exited: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  check_shape(dim3(8), dim3(4), out);           // 1D
  check_shape(dim3(4, 4), dim3(2, 2), out);     // 2D
  check_shape(dim3(4, 2, 4), dim3(2, 2, 2), out);  // 3D

  int* pair_out;
  cudaMallocManaged(&pair_out, sizeof(int) * 6);
  pairs<<<6, 32>>>(pair_out);
  expect("__cluster_dims__ launch", cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < 6; ++b) expect("__cluster_dims__ partner's value", pair_out[b], (b ^ 1) * 10);
  expect("__cluster_dims__ with a grid of 3", (pairs<<<3, 32>>>(pair_out), cudaGetLastError()),
         cudaErrorInvalidClusterSize);

  // Misshapen clusters.
  expect("grid of 3, clusters of 2", launch_with_cluster(exchange, dim3(3), dim3(32), dim3(2, 1, 1), out),
         cudaErrorInvalidClusterSize);
  expect("a cluster of 16 without the non-portable attribute",
         launch_with_cluster(exchange, dim3(16), dim3(32), dim3(16, 1, 1), out), cudaErrorInvalidClusterSize);
  cudaFuncSetAttribute(exchange, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  expect("a cluster of 16 with it", launch_with_cluster(exchange, dim3(16), dim3(32), dim3(16, 1, 1), out),
         cudaSuccess);
  expect("a cluster of 32", launch_with_cluster(exchange, dim3(32), dim3(32), dim3(32, 1, 1), out),
         cudaErrorInvalidClusterSize);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);

  // Occupancy.
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(16);
  config.blockDim = dim3(128);
  int size = 0;
  expect("max potential cluster size call", cudaOccupancyMaxPotentialClusterSize(&size, empty_kernel, &config),
         cudaSuccess);
  expect("max potential cluster size", size, 8);
  std::printf("clusters: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
