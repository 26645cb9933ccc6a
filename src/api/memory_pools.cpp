// Stream-ordered allocation and memory pools (cudaMallocAsync and the
// cudaMemPool calls). Each device has a default pool, which is also its
// current one until cudaDeviceSetMemPool; programs can make more. The
// memory of an allocation exists at once (using it before its stream
// reaches the allocation is still a bug CUDA does not catch, nor cusim);
// cudaFreeAsync frees when its stream reaches it. Pools keep no freed
// memory for reuse: reserved memory equals the memory in use, and the
// release threshold and cudaMemPoolTrimTo are kept but change nothing.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <type_traits>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>

#include "api/graph_memory.hpp"
#include "api/graphs.hpp"
#include "api/streams.hpp"
#include "memory/allocations.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

struct CUmemPoolHandle_st {
  int device = 0;
  bool is_default = false;
  std::size_t max_size = 0;  // 0: no limit but the device's
  std::uint64_t release_threshold = 0;
  int reuse[3] = {1, 1, 1};  // cudaMemPoolReuse*: allowed, as CUDA's default
  std::uint64_t used = 0, used_high = 0;
};

namespace cusim::detail {
namespace {

struct pool_table {
  std::mutex mutex;
  std::set<cudaMemPool_t> live;
  std::map<int, cudaMemPool_t> default_of, current_of;  // by device
  std::map<const void*, std::pair<cudaMemPool_t, std::size_t>> allocations;  // from pools, not yet freed
};
pool_table& pools() {
  static auto& t = *new pool_table;  // never destroyed: see api/device_queue.hpp
  return t;
}

// With the table's mutex held.
cudaMemPool_t default_pool(pool_table& t, int device) {
  cudaMemPool_t& pool = t.default_of[device];
  if (pool == nullptr) {
    pool = new CUmemPoolHandle_st{device, true};
    t.live.insert(pool);
  }
  return pool;
}
cudaMemPool_t current_pool(pool_table& t, int device) {
  auto it = t.current_of.find(device);
  return it != t.current_of.end() ? it->second : default_pool(t, device);
}

// Makes `device` current for the scope (an allocation belongs to the current device).
struct device_scope {
  explicit device_scope(int device) : saved(current_device()) { set_current_device(device); }
  ~device_scope() { set_current_device(saved); }
  int saved;
};

cudaError_t allocate_from(cudaMemPool_t pool, void** ptr, std::size_t size, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (ptr == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  // In a capture the allocation is the graph's: each launch allocates it.
  if (cudaError_t e; allocate_in_capture(stream, size, ptr, e)) return e == cudaSuccess ? e : set_error(e);
  pool_table& t = pools();
  std::lock_guard lock(t.mutex);
  if (pool == nullptr) pool = current_pool(t, current_device());
  if (t.live.count(pool) == 0) return set_error(cudaErrorInvalidValue);
  if (pool->max_size != 0 && pool->used + size > pool->max_size) return set_error(cudaErrorMemoryAllocation);
  void* memory = nullptr;
  {
    device_scope on(pool->device);
    memory = allocate(size, memory_kind::device);
  }
  if (memory == nullptr) return set_error(cudaErrorMemoryAllocation);
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  t.allocations[memory] = {pool, size};
  *ptr = memory;
  return cudaSuccess;
}


// cudaMemPoolSetAttribute (`set`) and cudaMemPoolGetAttribute: the reuse
// flags (int) and the release threshold are read and written; the usage
// figures (uint64) are read, and the high-water marks reset, only to 0.
cudaError_t pool_attribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value, bool set) {
  pool_table& t = pools();
  std::lock_guard lock(t.mutex);
  if (t.live.count(pool) == 0 || value == nullptr) return set_error(cudaErrorInvalidValue);
  const auto exchange = [&](auto& field) {
    using Field = std::remove_reference_t<decltype(field)>;
    if (set) field = *static_cast<Field*>(value);
    else *static_cast<Field*>(value) = field;
    return cudaSuccess;
  };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      return exchange(pool->reuse[attr - cudaMemPoolReuseFollowEventDependencies]);
    case cudaMemPoolAttrReleaseThreshold: return exchange(pool->release_threshold);
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
      if (set) return set_error(cudaErrorInvalidValue);
      return exchange(pool->used);
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
      if (!set) return exchange(pool->used_high);
      if (*static_cast<std::uint64_t*>(value) != 0) return set_error(cudaErrorInvalidValue);
      pool->used_high = pool->used;  // a reset starts the mark afresh
      return cudaSuccess;
    default:
      return set_error(cudaErrorInvalidValue);
  }
}

}  // namespace

// When a stream reaches cudaFreeAsync (or a graph's free node has run).
void free_pool_allocation(void* ptr) {
  pool_table& t = pools();
  {
    std::lock_guard lock(t.mutex);
    if (auto it = t.allocations.find(ptr); it != t.allocations.end()) {
      cudaMemPool_t pool = it->second.first;
      pool->used -= it->second.second;
      t.allocations.erase(it);
      if (pool->used == 0 && t.live.count(pool) == 0) delete pool;  // destroyed while in use
    }
  }
  release(ptr, true, false);
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocate_from(nullptr, devPtr, size, hStream);
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  if (memPool == nullptr) return set_error(cudaErrorInvalidValue);
  return allocate_from(memPool, ptr, size, stream);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(hStream)) return set_error(e);
  if (devPtr == nullptr) return cudaSuccess;
  const auto a = find_allocation(devPtr);
  if (!a || a->base != devPtr || a->kind != memory_kind::device) return set_error(cudaErrorInvalidValue);
  cudaError_t graph_error = cudaSuccess;
  // In a capture the free becomes a free node, which frees when its graph runs.
  if (free_in_capture(hStream, devPtr)) return cudaSuccess;
  // A graph's allocation is freed now, for its graph's next launch; its
  // memory goes, when its graphs are gone, once the stream gets there.
  if (bool release = false; free_graph_allocation(devPtr, "cudaFreeAsync", graph_error, release)) {
    if (graph_error != cudaSuccess) return set_error(graph_error);
    if (!release) return cudaSuccess;
  }
  return enqueue(hStream, [devPtr] { free_pool_allocation(devPtr); }, cudaGraphNodeTypeEmpty, false, "cudaFreeAsync");
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  if (memPool == nullptr) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  std::lock_guard lock(pools().mutex);
  *memPool = default_pool(pools(), device);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  if (memPool == nullptr) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  std::lock_guard lock(pools().mutex);
  *memPool = current_pool(pools(), device);
  return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  pool_table& t = pools();
  std::lock_guard lock(t.mutex);
  if (t.live.count(memPool) == 0 || memPool->device != device) return set_error(cudaErrorInvalidValue);
  t.current_of[device] = memPool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  if (memPool == nullptr || poolProps == nullptr) return set_error(cudaErrorInvalidValue);
  if (poolProps->allocType != cudaMemAllocationTypePinned || poolProps->location.type != cudaMemLocationTypeDevice) {
    return set_error(cudaErrorInvalidValue);
  }
  if (!valid_device(poolProps->location.id)) return set_error(cudaErrorInvalidDevice);
  auto* pool = new CUmemPoolHandle_st{poolProps->location.id, false, poolProps->maxSize};
  std::lock_guard lock(pools().mutex);
  pools().live.insert(pool);
  *memPool = pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  pool_table& t = pools();
  std::lock_guard lock(t.mutex);
  if (t.live.count(memPool) == 0 || memPool->is_default) return set_error(cudaErrorInvalidValue);
  // A device whose current pool this was goes back to its default one. The
  // pool's allocations stay valid until freed; the record goes with the last.
  std::erase_if(t.current_of, [&](const auto& entry) { return entry.second == memPool; });
  t.live.erase(memPool);
  if (memPool->used == 0) delete memPool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  return pool_attribute(memPool, attr, value, /*set*/ true);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  return pool_attribute(memPool, attr, value, /*set*/ false);
}

// Which devices may use a pool's memory. With one device there is only the
// owning one, which always has read-write access: granting it again
// succeeds, anything else fails with the error an H200 gives
// (diff.memory.pool_access).
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList, size_t count) {
  {
    std::lock_guard lock(pools().mutex);
    if (pools().live.count(memPool) == 0) return set_error(cudaErrorInvalidValue);
  }
  if (count != 0 && descList == nullptr) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    const cudaMemAccessDesc& access = descList[i];
    if (access.flags != cudaMemAccessFlagsProtNone && access.flags != cudaMemAccessFlagsProtRead &&
        access.flags != cudaMemAccessFlagsProtReadWrite) {
      return set_error(cudaErrorInvalidValue);
    }
    if (access.location.type != cudaMemLocationTypeDevice) return set_error(cudaErrorNotSupported);
    if (!valid_device(access.location.id)) return set_error(cudaErrorInvalidDevice);
    if (access.flags == cudaMemAccessFlagsProtRead) return set_error(cudaErrorNotSupported);
    // The owning device cannot give up its access.
    if (access.location.id == memPool->device && access.flags == cudaMemAccessFlagsProtNone) {
      return set_error(cudaErrorInvalidDevice);
    }
  }
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool, cudaMemLocation* location) {
  if (flags == nullptr || location == nullptr) return set_error(cudaErrorInvalidValue);
  {
    std::lock_guard lock(pools().mutex);
    if (pools().live.count(memPool) == 0) return set_error(cudaErrorInvalidValue);
  }
  if (location->type == cudaMemLocationTypeDevice) {
    if (!valid_device(location->id)) return set_error(cudaErrorInvalidValue);
    *flags = location->id == memPool->device ? cudaMemAccessFlagsProtReadWrite : cudaMemAccessFlagsProtNone;
    return cudaSuccess;
  }
  *flags = cudaMemAccessFlagsProtNone;  // the host, as an H200 answers
  return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t) {
  std::lock_guard lock(pools().mutex);
  return pools().live.count(memPool) != 0 ? cudaSuccess : set_error(cudaErrorInvalidValue);
}

}  // extern "C"
