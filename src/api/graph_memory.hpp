// The memory of graphs' allocation nodes (cudaGraphAddMemAllocNode, and
// cudaMallocAsync in a captured stream). As in CUDA, a node's address is
// fixed when the node is made and serves every launch of its graph; each
// launch allocates it, and a free node (of that graph or another),
// cudaFree or cudaFreeAsync frees it. Launching the graph again while its
// allocation is still allocated fails with cudaErrorInvalidValue, unless
// the executable graph was made with cudaGraphInstantiateFlagAutoFreeOnLaunch.
// The memory itself is held from the node's making until neither a graph
// made from it remains nor its allocation is still allocated.
#pragma once
#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

namespace cusim::detail {

// The allocation nodes' memory of one graph and of what is made from it
// (clones, executable graphs), which share it.
class graph_allocations {
 public:
  graph_allocations() = default;
  graph_allocations(const graph_allocations&) = delete;
  graph_allocations& operator=(const graph_allocations&) = delete;
  ~graph_allocations();  // releases what is not allocated; the rest goes when freed

  // A new allocation node's memory: its address, or null when out of memory.
  void* reserve(std::size_t bytes);

  // An executable graph made from `graph` (or removed). A graph with
  // allocation nodes has at most one at a time, as in CUDA: another from the
  // same graph is cudaErrorNotSupported, one from a clone cudaErrorInvalidValue.
  cudaError_t add_executable(const void* graph);
  void remove_executable();

 private:
  std::vector<void*> addresses_;
  const void* executable_of_ = nullptr;  // the graph the executable graph was made from
  int executables_ = 0;
};

// What one allocation or free node does when its graph is launched.
struct graph_memory_step {
  bool allocates;  // an allocation node; otherwise a free node
  void* address;
};

// A graph launch's allocation and free nodes, in the graph's order: checked
// first, then done. Fails with cudaErrorInvalidValue, changing nothing, when
// an allocation is still allocated (unless `auto_free`) or a free node frees
// what is not allocated. Memory that must go once the launch's work has run
// (a free node's cudaMallocAsync memory, a freed allocation no graph holds)
// is added to `release_after`, for release_graph_memory.
cudaError_t launch_graph_memory(const std::vector<graph_memory_step>& steps, bool auto_free,
                                std::vector<void*>& release_after);
void release_graph_memory(const std::vector<void*>& addresses);

// The stream-ordered free of cudaFreeAsync (memory_pools.cpp).
void free_pool_allocation(void* ptr);

// cudaFree and cudaFreeAsync (`api`): false when `address` is not a graph
// allocation. Otherwise frees it, setting `error` (cudaErrorInvalidValue,
// reported, when it is not allocated) and `release` (the memory itself must
// now go: no graph holds it any more).
bool free_graph_allocation(void* address, const char* api, cudaError_t& error, bool& release);

}  // namespace cusim::detail
