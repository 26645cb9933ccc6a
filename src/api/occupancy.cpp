#include "api/occupancy.hpp"

#include <algorithm>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>

#include "api/errors.hpp"
#include "api/kernels.hpp"

namespace cusim::detail {

int resident_blocks_per_multiprocessor(const kernel_info& kernel, unsigned int threads_per_block,
                                       std::size_t dynamic_shared_bytes) {
  const device_profile& p = active_profile();
  if (threads_per_block == 0 || threads_per_block > unsigned(p.max_threads_per_block)) return 0;
  const unsigned int warps = (threads_per_block + 31) / 32;
  const int by_warps = p.max_threads_per_multiprocessor / 32 / int(warps);
  int blocks = std::min(by_warps, p.max_blocks_per_multiprocessor);
  // Shared memory is allocated in 128-byte units, each block with the part the system reserves.
  const std::size_t used = kernel.static_shared.load() + dynamic_shared_bytes;
  if (used > p.shared_mem_per_block_optin) return 0;
  const std::size_t per_block = (used + p.reserved_shared_mem_per_block + 127) / 128 * 128;
  if (per_block > 0) blocks = std::min<int>(blocks, int(p.shared_mem_per_multiprocessor / per_block));
  return blocks;
}

// The checks every occupancy query makes of its arguments.
cudaError_t check_occupancy_query(const void* result, const void* func, bool config_ok = true) {
  if (cudaError_t e = context_error()) return e;
  if (result == nullptr || !config_ok) return set_error(cudaErrorInvalidValue);
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}

}  // namespace cusim::detail

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                              int blockSize, size_t dynamicSMemSize,
                                                                              unsigned int) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(numBlocks, func, blockSize > 0)) return e;
  *numBlocks = resident_blocks_per_multiprocessor(kernel_record(func), unsigned(blockSize), dynamicSMemSize);
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

extern "C" cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                           const cudaLaunchConfig_t* config) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(clusterSize, func, config != nullptr)) return e;
  const cusim::device_profile& p = cusim::active_profile();
  const bool non_portable = kernel_record(func).non_portable_cluster_size.load();
  *clusterSize = non_portable ? 2 * p.max_cluster_size : p.max_cluster_size;
  return cudaSuccess;
}

// Clusters are placed whole on groups of multiprocessors; cusim counts the
// blocks the whole device holds and divides by the cluster size.
extern "C" cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                                     const cudaLaunchConfig_t* config) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(numClusters, func, config != nullptr)) return e;
  const launch_shape shape = launch_shape_of(*config);
  const dim3 compiled = compiled_cluster_dims(func);
  const dim3 cluster = compiled.x != 0 ? compiled : (shape.cluster.x != 0 ? shape.cluster : dim3(1, 1, 1));
  const unsigned int threads = shape.block.x * shape.block.y * shape.block.z;
  const int per_sm = resident_blocks_per_multiprocessor(kernel_record(func), threads, shape.dynamic_shared_bytes);
  const unsigned int size = cluster.x * cluster.y * cluster.z;
  *numClusters = size == 0 ? 0 : per_sm * cusim::active_profile().multiprocessor_count / int(size);
  return cudaSuccess;
}
