// cudaFuncGetAttributes and the cache-configuration calls. A CPU has no
// registers to count or L1/shared split to choose: numRegs is what
// occupancy assumes (api/occupancy.hpp; 0 when unknown) and cache
// preferences are accepted and remembered, with no effect.
#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>

#include "api/occupancy.hpp"
#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "support/symbols.hpp"
#include <cusim/detail/kernel_call.hpp>

using namespace cusim::detail;

namespace {
std::atomic<cudaFuncCache> device_cache_config{cudaFuncCachePreferNone};

bool valid_cache_config(cudaFuncCache config) {
  return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual;
}
}  // namespace

extern "C" {

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return set_error(cudaErrorInvalidValue);
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  const kernel_info& kernel = kernel_record(func);
  const cusim::device_profile& p = cusim::active_profile();
  *attr = cudaFuncAttributes{};
  // Static shared memory as cusim-cc's front end registered it, or (a file
  // clang could not parse) as the kernel's blocks have used it so far.
  attr->sharedSizeBytes = kernel.static_shared.load();
  const launch_bounds bounds = compiled_launch_bounds(func);
  attr->maxThreadsPerBlock = bounds.max_threads != 0 ? int(bounds.max_threads) : p.max_threads_per_block;
  attr->numRegs = int(registers_of(func).per_thread);
  attr->ptxVersion = attr->binaryVersion = p.major * 10 + p.minor;
  const std::size_t static_bytes = kernel.static_shared.load();
  attr->maxDynamicSharedSizeBytes =
      kernel.max_dynamic_shared_set.load()
          ? int(kernel.max_dynamic_shared.load())
          : int(p.shared_mem_per_block - std::min<std::size_t>(static_bytes, p.shared_mem_per_block));
  attr->preferredShmemCarveout = -1;
  attr->requiredClusterWidth = int(kernel.required_cluster[0].load());
  attr->requiredClusterHeight = int(kernel.required_cluster[1].load());
  attr->requiredClusterDepth = int(kernel.required_cluster[2].load());
  attr->nonPortableClusterSizeAllowed = kernel.non_portable_cluster_size.load() ? 1 : 0;
  return cudaSuccess;
}

cudaError_t cudaFuncGetName(const char** name, const void* func) {
  if (name == nullptr) return set_error(cudaErrorInvalidValue);
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  // CUDA gives the kernel's symbol (mangled name): from the binary's symbol
  // table where it has one, else the name cusim-cc registered.
  const char* known = registered_name(func);
  if (known == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  static std::mutex mutex;
  static std::map<const void*, std::string> symbols;  // the pointers handed out stay valid
  std::lock_guard lock(mutex);
  auto [it, fresh] = symbols.try_emplace(func);
  if (fresh) {
    it->second = symbol_at(func);
    if (it->second.empty()) it->second = known;
  }
  *name = it->second.c_str();
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  if (!valid_cache_config(cacheConfig)) return set_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  if (pCacheConfig == nullptr) return set_error(cudaErrorInvalidValue);
  *pCacheConfig = device_cache_config.load();
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  if (!valid_cache_config(cacheConfig)) return set_error(cudaErrorInvalidValue);
  device_cache_config.store(cacheConfig);
  return cudaSuccess;
}

}  // extern "C"
