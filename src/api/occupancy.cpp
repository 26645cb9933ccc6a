#include "api/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <string>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>
#include <cusim/runtime.hpp>

#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {

constexpr unsigned int register_allocation_unit = 256;  // registers, per warp
constexpr unsigned int partitions_per_multiprocessor = 4;
constexpr unsigned int max_registers_per_thread = 255;

template <class Unsigned>
Unsigned round_up(Unsigned value, Unsigned unit) {
  return (value + unit - 1) / unit * unit;
}

// A kernel's shared memory as the occupancy calculator sees it.
struct shared_limits {
  std::size_t static_bytes;
  bool opted_in;            // cudaFuncAttributeMaxDynamicSharedMemorySize set
  std::size_t max_dynamic;  // that attribute, or the default share less the static part
  std::size_t per_block;    // what one block may be allocated, the system's reservation included
};
shared_limits shared_limits_of(const kernel_info& kernel) {
  const device_profile& p = active_profile();
  shared_limits s{kernel.static_shared.load(), kernel.max_dynamic_shared_set.load(), 0, 0};
  s.max_dynamic = s.opted_in ? kernel.max_dynamic_shared.load()
                             : p.shared_mem_per_block - std::min(s.static_bytes, p.shared_mem_per_block);
  // Past the default share only for a kernel that opted in to more.
  const bool beyond_default =
      s.opted_in && s.static_bytes + p.reserved_shared_mem_per_block + s.max_dynamic > p.shared_mem_per_block;
  s.per_block = (beyond_default ? p.shared_mem_per_block_optin : p.shared_mem_per_block) + p.reserved_shared_mem_per_block;
  return s;
}

struct register_overrides {
  std::mutex mutex;
  std::map<const void*, unsigned int> by_kernel;  // cusim::set_registers_per_thread
};
register_overrides& overrides() {
  static auto& o = *new register_overrides;  // never destroyed: see api/device_queue.hpp
  return o;
}

// CUSIM_REGISTERS="name=N,name=N": kernels by the name cusim-cc registered.
const std::map<std::string, unsigned int>& registers_from_environment() {
  static const std::map<std::string, unsigned int> parsed = [] {
    std::map<std::string, unsigned int> result;
    const auto value = env_string("CUSIM_REGISTERS");
    if (!value) return result;
    std::size_t start = 0;
    while (start <= value->size()) {
      const std::size_t end = std::min(value->find(',', start), value->size());
      const std::string entry = value->substr(start, end - start);
      const std::size_t equals = entry.rfind('=');
      char* rest = nullptr;
      const unsigned long count =
          equals == std::string::npos ? 0 : std::strtoul(entry.c_str() + equals + 1, &rest, 10);
      if (equals == std::string::npos || equals == 0 || rest == nullptr || *rest != '\0' || count == 0 ||
          count > max_registers_per_thread) {
        report("CUSIM_REGISTERS: \"{}\" is not kernel=N with N from 1 to {}; it is ignored.", entry,
               max_registers_per_thread);
      } else {
        result[entry.substr(0, equals)] = unsigned(count);
      }
      start = end + 1;
    }
    return result;
  }();
  return parsed;
}

// __launch_bounds__(T, B): the compiler keeps each thread to as many
// registers as let B blocks of T threads share a multiprocessor.
unsigned int launch_bounds_register_cap(const launch_bounds& bounds) {
  if (bounds.max_threads == 0 || bounds.min_blocks == 0) return 0;
  const unsigned int threads = round_up(bounds.max_threads, 32u) * bounds.min_blocks;
  const unsigned int cap = unsigned(active_profile().regs_per_multiprocessor) / threads / 8 * 8;
  return std::clamp(cap, 8u, max_registers_per_thread);
}

// Blocks per multiprocessor by registers; 0 when one block does not fit.
int blocks_by_registers(unsigned int registers, unsigned int warps_per_block) {
  const device_profile& p = active_profile();
  if (registers == 0) return INT_MAX;
  const unsigned int per_warp = round_up(registers * 32u, register_allocation_unit);
  // A GPU checks a block as if its warps filled every partition evenly.
  const unsigned long long checked = 1ull * per_warp * round_up(warps_per_block, partitions_per_multiprocessor);
  if (registers > max_registers_per_thread || checked > unsigned(p.regs_per_block)) return 0;
  const unsigned int warps_per_partition = unsigned(p.regs_per_multiprocessor) / partitions_per_multiprocessor / per_warp;
  return int(warps_per_partition * partitions_per_multiprocessor / warps_per_block);
}

}  // namespace

register_use registers_of(const void* function) {
  {
    register_overrides& o = overrides();
    std::lock_guard lock(o.mutex);
    if (auto it = o.by_kernel.find(function); it != o.by_kernel.end()) {
      return {it->second, "set with cusim::set_registers_per_thread"};
    }
  }
  if (const char* name = registered_name(function)) {
    const auto& from_env = registers_from_environment();
    if (auto it = from_env.find(name); it != from_env.end()) return {it->second, "from CUSIM_REGISTERS"};
  }
  if (const unsigned int cap = launch_bounds_register_cap(compiled_launch_bounds(function))) {
    return {cap, "at most, from __launch_bounds__ with a minimum of blocks"};
  }
  return {};
}

occupancy occupancy_of(const kernel_info& kernel, const void* function, unsigned int threads_per_block,
                       std::size_t dynamic_shared_bytes) {
  const device_profile& p = active_profile();
  if (threads_per_block == 0 || threads_per_block > unsigned(p.max_threads_per_block)) return {};
  const unsigned int warps = (threads_per_block + 31) / 32;
  occupancy result{p.max_threads_per_multiprocessor / 32 / int(warps), occupancy_limit::warps};
  const auto limit = [&](int blocks, occupancy_limit why) {
    if (blocks < result.blocks_per_multiprocessor) result = {blocks, why};
  };
  limit(p.max_blocks_per_multiprocessor, occupancy_limit::blocks);
  limit(blocks_by_registers(registers_of(function).per_thread, warps), occupancy_limit::registers);
  const shared_limits shared = shared_limits_of(kernel);
  const std::size_t allocated =
      round_up<std::size_t>(shared.static_bytes + p.reserved_shared_mem_per_block + dynamic_shared_bytes, 128);
  if ((shared.opted_in && dynamic_shared_bytes > shared.max_dynamic) || allocated > shared.per_block) {
    limit(0, occupancy_limit::shared_memory);
  } else if (allocated > 0) {
    limit(int(p.shared_mem_per_multiprocessor / allocated), occupancy_limit::shared_memory);
  }
  return result;
}

int resident_blocks_per_multiprocessor(const kernel_info& kernel, const void* function,
                                       unsigned int threads_per_block, std::size_t dynamic_shared_bytes) {
  return occupancy_of(kernel, function, threads_per_block, dynamic_shared_bytes).blocks_per_multiprocessor;
}

bool too_many_registers(const void* function, unsigned int threads_per_block) {
  const unsigned int registers = registers_of(function).per_thread;
  return registers != 0 && blocks_by_registers(registers, (threads_per_block + 31) / 32) == 0;
}

// The checks every occupancy query makes of its arguments.
cudaError_t check_occupancy_query(const void* result, const void* func, bool config_ok = true) {
  if (cudaError_t e = context_error()) return e;
  if (result == nullptr || !config_ok) return set_error(cudaErrorInvalidValue);
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}

}  // namespace cusim::detail

void cusim::set_registers_per_thread(const void* kernel, unsigned int registers) {
  auto& o = detail::overrides();
  std::lock_guard lock(o.mutex);
  if (registers == 0) {
    o.by_kernel.erase(kernel);
  } else {
    o.by_kernel[kernel] = std::min(registers, detail::max_registers_per_thread);
  }
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                              int blockSize, size_t dynamicSMemSize,
                                                                              unsigned int) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(numBlocks, func, blockSize > 0)) return e;
  *numBlocks = resident_blocks_per_multiprocessor(kernel_record(func), func, unsigned(blockSize), dynamicSMemSize);
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

// The block size with the most threads resident per multiprocessor (the
// largest such, trying sizes downward by warps from the kernel's limit), as
// CUDA's calculator chooses; `shared_for` gives each size's dynamic shared memory.
extern "C" cudaError_t cusimOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, const void* func,
                                                          size_t (*shared_for)(int, void*), void* context,
                                                          int blockSizeLimit, unsigned int) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(minGridSize, func, blockSize != nullptr && blockSizeLimit >= 0)) {
    return e;
  }
  const cusim::device_profile& p = cusim::active_profile();
  const kernel_info& kernel = kernel_record(func);
  const launch_bounds bounds = compiled_launch_bounds(func);
  int limit = p.max_threads_per_block;
  if (bounds.max_threads != 0) limit = std::min(limit, int(bounds.max_threads));
  if (blockSizeLimit > 0) limit = std::min(limit, blockSizeLimit);
  int best_size = 0, best_blocks = 0, best_threads = 0;
  for (int aligned = (limit + 31) / 32 * 32; aligned > 0; aligned -= 32) {
    const int size = std::min(limit, aligned);
    const int blocks = resident_blocks_per_multiprocessor(kernel, func, unsigned(size), shared_for(size, context));
    if (size * blocks > best_threads) {
      best_size = size;
      best_blocks = blocks;
      best_threads = size * blocks;
    }
    if (best_threads == p.max_threads_per_multiprocessor) break;
  }
  *minGridSize = best_blocks * p.multiprocessor_count;
  *blockSize = best_size;
  return cudaSuccess;
}

// How much dynamic shared memory a block may have with `numBlocks` blocks
// of `blockSize` threads resident on a multiprocessor, as CUDA's calculator
// answers: the multiprocessor's shared memory (a block's limit when one
// block) shared out in 128-byte units, within the block's limit, less the
// static part, within the kernel's dynamic maximum. (The calculator leaves
// the system's reservation in the share.)
extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                                int numBlocks, int blockSize) {
  using namespace cusim::detail;
  if (cudaError_t e = check_occupancy_query(dynamicSmemSize, func, numBlocks > 0 && blockSize > 0)) return e;
  const cusim::device_profile& p = cusim::active_profile();
  const kernel_info& kernel = kernel_record(func);
  if (resident_blocks_per_multiprocessor(kernel, func, unsigned(blockSize), 0) < numBlocks) {
    return set_error(cudaErrorInvalidValue);
  }
  const shared_limits shared = shared_limits_of(kernel);
  const std::size_t block_limit =
      (shared.opted_in ? p.shared_mem_per_block_optin : p.shared_mem_per_block) + p.reserved_shared_mem_per_block;
  const std::size_t pool = numBlocks == 1 ? block_limit : p.shared_mem_per_multiprocessor;
  const std::size_t share = std::min(pool / unsigned(numBlocks) / 128 * 128, block_limit);
  *dynamicSmemSize = std::min(share - std::min(share, shared.static_bytes), shared.max_dynamic);
  return cudaSuccess;
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
  const int per_sm = resident_blocks_per_multiprocessor(kernel_record(func), func, threads, shape.dynamic_shared_bytes);
  const unsigned int size = cluster.x * cluster.y * cluster.z;
  *numClusters = size == 0 ? 0 : per_sm * cusim::active_profile().multiprocessor_count / int(size);
  return cudaSuccess;
}
