// Graph allocations' life cycle and footprint (see api/graph_memory.hpp),
// and the cudaDeviceGraphMem* calls. As on a GPU, the memory a launch
// allocated stays mapped for the graph's next launch once freed, until
// cudaDeviceGraphMemTrim: the "used" and "reserved" footprints count
// mapped memory, and fall only with a trim or when the memory goes. A GPU
// maps in 32 MiB units and shares physical memory between graphs whose
// allocations do not overlap in time; cusim counts bytes, graph by graph.
#include "api/graph_memory.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include <cusim/profile.hpp>

#include "memory/allocations.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {
namespace {

struct graph_block {
  std::size_t bytes;
  bool allocated = false;  // by a launch, not yet freed
  bool mapped = false;     // allocated at least once since the last trim
  bool orphaned = false;   // no graph holds it: it goes when freed
};

struct graph_memory_ledger {
  std::mutex mutex;
  std::unordered_map<void*, graph_block> blocks;
  std::unordered_set<void*> freed_by_launches;  // cudaMallocAsync memory a launched free node frees
  unsigned long long mapped = 0, used_high = 0, reserved_high = 0;

  // With the mutex held.
  void allocate(graph_block& b) {
    b.allocated = true;
    if (!b.mapped) {
      b.mapped = true;
      mapped += b.bytes;
    }
    used_high = std::max(used_high, mapped);
    reserved_high = std::max(reserved_high, mapped);
  }
  void unmap(graph_block& b) {
    if (b.mapped) mapped -= b.bytes;
    b.mapped = false;
  }
  // Forgets the block; the caller releases its memory.
  void forget(void* address) {
    unmap(blocks.at(address));
    blocks.erase(address);
  }
};

graph_memory_ledger& ledger() {
  static auto& l = *new graph_memory_ledger;  // never destroyed: see api/device_queue.hpp
  return l;
}

}  // namespace

void* graph_allocations::reserve(std::size_t bytes) {
  void* memory = nullptr;
  if (cudaMalloc(&memory, bytes) != cudaSuccess) return nullptr;
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  l.blocks.emplace(memory, graph_block{bytes});
  addresses_.push_back(memory);
  return memory;
}

cudaError_t graph_allocations::add_executable(const void* graph) {
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  if (!addresses_.empty() && executables_ > 0) {
    return graph == executable_of_ ? cudaErrorNotSupported : cudaErrorInvalidValue;
  }
  ++executables_;
  executable_of_ = graph;
  return cudaSuccess;
}

void graph_allocations::remove_executable() {
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  --executables_;
}

graph_allocations::~graph_allocations() {
  std::vector<void*> released;
  {
    graph_memory_ledger& l = ledger();
    std::lock_guard lock(l.mutex);
    for (void* address : addresses_) {
      graph_block& b = l.blocks.at(address);
      if (b.allocated) {
        b.orphaned = true;
      } else {
        l.forget(address);
        released.push_back(address);
      }
    }
  }
  // Not cudaFree, which waits for the device: memory that is not allocated
  // is used by no work (a graph destroyed in a stream callback must not wait).
  for (void* address : released) release(address, /*device or managed*/ true, /*pinned*/ false);
}

cudaError_t launch_graph_memory(const std::vector<graph_memory_step>& steps, bool auto_free,
                                std::vector<void*>& release_after) {
  if (steps.empty()) return cudaSuccess;
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  // First on a copy of the states, so that a failing launch changes nothing.
  std::unordered_map<void*, bool> allocated;
  for (const graph_memory_step& step : steps) {
    const auto block = l.blocks.find(step.address);
    if (block == l.blocks.end()) {
      // A free node of cudaMallocAsync memory: it must still be allocated.
      const auto a = find_allocation(step.address);
      if (!a || a->base != step.address || l.freed_by_launches.count(step.address) != 0) return cudaErrorInvalidValue;
      continue;
    }
    auto [state, added] = allocated.try_emplace(step.address, block->second.allocated);
    if (step.allocates && state->second && !auto_free) return cudaErrorInvalidValue;
    if (!step.allocates && !state->second) return cudaErrorInvalidValue;
    state->second = step.allocates;
  }
  for (const graph_memory_step& step : steps) {
    const auto block = l.blocks.find(step.address);
    if (block == l.blocks.end()) {
      l.freed_by_launches.insert(step.address);
      release_after.push_back(step.address);
      continue;
    }
    graph_block& b = block->second;
    b.allocated = false;  // a free node, or the auto-free of an allocation node
    if (step.allocates) {
      l.allocate(b);
    } else if (b.orphaned) {
      l.forget(step.address);
      release_after.push_back(step.address);
    }
  }
  return cudaSuccess;
}

void release_graph_memory(const std::vector<void*>& addresses) {
  for (void* address : addresses) {
    {
      graph_memory_ledger& l = ledger();
      std::lock_guard lock(l.mutex);
      l.freed_by_launches.erase(address);
    }
    free_pool_allocation(address);
  }
}

bool free_graph_allocation(void* address, const char* api, cudaError_t& error, bool& release) {
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  const auto block = l.blocks.find(address);
  if (block == l.blocks.end()) return false;
  error = cudaSuccess;
  release = false;
  graph_block& b = block->second;
  if (!b.allocated) {
    report("{} was given {}, the memory of a graph's allocation node that is not allocated now (its graph has not "
           "run since it was last freed). It returns cudaErrorInvalidValue.",
           api, address);
    error = cudaErrorInvalidValue;
    return true;
  }
  b.allocated = false;
  if (b.orphaned) {
    l.forget(address);
    release = true;
  }
  return true;
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  auto* out = static_cast<unsigned long long*>(value);
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent:
    case cudaGraphMemAttrReservedMemCurrent: *out = l.mapped; break;
    case cudaGraphMemAttrUsedMemHigh: *out = l.used_high; break;
    case cudaGraphMemAttrReservedMemHigh: *out = l.reserved_high; break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Only the high-water marks can be reset, to 0 (then: to the current figure).
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  if (value == nullptr || *static_cast<unsigned long long*>(value) != 0) return set_error(cudaErrorInvalidValue);
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  switch (attr) {
    case cudaGraphMemAttrUsedMemHigh: l.used_high = l.mapped; break;
    case cudaGraphMemAttrReservedMemHigh: l.reserved_high = l.mapped; break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Memory kept mapped for graphs' next launches is given back: the
// footprint falls to what is allocated.
cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  graph_memory_ledger& l = ledger();
  std::lock_guard lock(l.mutex);
  for (auto& [address, b] : l.blocks) {
    if (!b.allocated) l.unmap(b);
  }
  return cudaSuccess;
}

}  // extern "C"
