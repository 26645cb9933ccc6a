#include "check/address_description.hpp"

#include "memory/allocations.hpp"
#include "sched/block.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

std::string describe_device_address(const void* address) {
  if (worker* w = worker::current()) {
    if (const block_state* owner = w->shared_memory_owner(address)) return owner->describe_shared_address(address);
  }
  if (std::string heap = describe_device_heap_address(address); !heap.empty()) return heap;
  return describe_allocation_address(address);
}

}  // namespace cusim::detail
