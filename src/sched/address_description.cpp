#include "sched/address_description.hpp"

#include <fmt/format.h>

#include "memory/allocations.hpp"
#include "sched/block.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

std::string describe_device_address(const void* address) {
  if (worker* w = worker::current()) {
    if (const block_state* owner = w->shared_memory_owner(address)) return owner->describe_shared_address(address);
  }
  if (std::string heap = describe_device_heap_address(address); !heap.empty()) return heap;
  if (const auto a = find_allocation(address, /*with_padding*/ true)) {
    const auto offset = static_cast<std::size_t>(static_cast<const char*>(address) - static_cast<char*>(a->base));
    return fmt::format("{} bytes {} the {}-byte buffer at {} (cudaMalloc and the like, device {})",
                       offset < a->size ? offset : offset - a->size, offset < a->size ? "into" : "after", a->size,
                       a->base, a->device);
  }
  return {};
}

}  // namespace cusim::detail
