// The device heap (include/cusim/detail/device_heap.hpp): one region of
// cudaLimitMallocHeapSize bytes, reserved when a kernel first allocates,
// split first-fit into 16-byte-aligned blocks. A mutex guards it: device
// code on several workers allocates at once. Where addresses are checked
// (support/address_check.hpp) everything not handed out is poisoned, each
// block ends in a redzone, and freed blocks wait in a quarantine before
// they are reused, so a kernel that runs past its allocation or uses it
// after free() is caught.
#include <cusim/detail/device_heap.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <unordered_map>

#include <cusim/detail/builtins.hpp>
#include <driver_types.h>

#include "memory/allocations.hpp"
#include "memory/free_ranges.hpp"
#include "platform/memory.hpp"
#include "runtime/limits.hpp"
#include "sched/worker.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"


namespace cusim::detail {

namespace {

constexpr std::size_t heap_alignment = 16;

struct heap_block {
  std::size_t size;   // taken from the region: rounded, with the redzone
  std::size_t bytes;  // asked for
};

class heap_region {
 public:
  // Reserves the region on first use, at the size the limit has then.
  void* allocate(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    if (base_ == nullptr && !reserve()) return nullptr;
    const std::size_t size = round_up(std::max<std::size_t>(bytes, 1) + address_check::redzone);
    void* p = take(size, bytes);
    if (p == nullptr && !quarantine_.empty()) {
      while (!quarantine_.empty()) reuse_oldest_quarantined();
      p = take(size, bytes);
    }
    return p;  // nullptr when full, as a GPU's heap gives
  }

  // False when `p` is not the start of a live allocation.
  bool release(void* p) {
    std::lock_guard lock(mutex_);
    if (!holds(p)) return false;
    const std::size_t offset = static_cast<std::size_t>(static_cast<char*>(p) - base_);
    auto it = used_.find(offset);
    if (it == used_.end()) return false;
    const heap_block block = it->second;
    used_.erase(it);
    address_check::poison(base_ + offset, block.size);
    if (!address_check::enabled) {
      free_.give_back(offset, block.size);
      return true;
    }
    quarantine_.emplace_back(offset, block);
    quarantined_bytes_ += block.size;
    while (quarantined_bytes_ > size_ / 4) reuse_oldest_quarantined();
    return true;
  }

  // For reports made while anything may hold the lock (a sanitizer's, from
  // inside the heap's own code): nothing rather than a deadlock.
  std::string describe(const void* p) {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock || !holds(p)) return {};
    const std::size_t offset = static_cast<std::size_t>(static_cast<const char*>(p) - base_);
    auto describe_in = [&](std::size_t start, const heap_block& b, const char* state) {
      return place_in(offset - start, b.bytes,
                      fmt::format("the {}-byte {}block at {}", b.bytes, state, static_cast<void*>(base_ + start)));
    };
    for (const auto& [start, b] : used_) {
      if (offset - start < b.size) return describe_in(start, b, "");
    }
    for (const auto& [start, b] : quarantine_) {
      if (offset - start < b.size) return describe_in(start, b, "freed ");
    }
    return "outside every block";
  }

  bool holds(const void* p) const {
    const auto* c = static_cast<const char*>(p);
    return base_ != nullptr && c >= base_ && c < base_ + size_;
  }

 private:
  bool reserve() {
    std::size_t bytes = 0;
    read_limit(cudaLimitMallocHeapSize, bytes);
    bytes = std::max(heap_alignment, round_up(bytes));
    const std::size_t page = platform::page_size();
    bytes = (bytes + page - 1) / page * page;
    void* region = platform::reserve_memory(bytes);
    if (region == nullptr) return false;
    base_ = static_cast<char*>(region);
    size_ = bytes;
    free_ = free_ranges(bytes);
    address_check::poison(base_, size_);
    return true;
  }

  static std::size_t round_up(std::size_t bytes) { return (bytes + heap_alignment - 1) / heap_alignment * heap_alignment; }

  // First fit for `size` bytes, of which the first `bytes` become addressable.
  void* take(std::size_t size, std::size_t bytes) {
    const std::optional<std::size_t> offset = free_.take(size);
    if (!offset) return nullptr;
    used_.emplace(*offset, heap_block{size, bytes});
    address_check::unpoison(base_ + *offset, bytes);
    return base_ + *offset;
  }

  void reuse_oldest_quarantined() {
    const auto [offset, block] = quarantine_.front();
    quarantine_.pop_front();
    quarantined_bytes_ -= block.size;
    free_.give_back(offset, block.size);
  }

  std::mutex mutex_;
  char* base_ = nullptr;
  std::size_t size_ = 0;
  free_ranges free_;
  std::unordered_map<std::size_t, heap_block> used_;       // by offset
  std::deque<std::pair<std::size_t, heap_block>> quarantine_;  // freed, by offset, oldest first
  std::size_t quarantined_bytes_ = 0;
};

// Made on first use and never destroyed (kernels may free at exit). Not a
// function-local static: describing an address from inside a race report
// (__tsan_on_report) must not run the static's guard, which ThreadSanitizer
// intercepts and which deadlocks its newer runtimes (clang 14's) there.
std::atomic<heap_region*> the_heap{nullptr};

heap_region& heap() {
  heap_region* region = the_heap.load(std::memory_order_acquire);
  if (region != nullptr) return *region;
  auto* made = new heap_region;
  if (the_heap.compare_exchange_strong(region, made, std::memory_order_acq_rel)) return *made;
  delete made;  // another thread made it first
  return *region;
}

bool in_kernel() { return current_thread != nullptr; }

// Race checking: the heap's bookkeeping is cusim's, out of TSan's sight, and
// what the allocator orders is told instead: a block's earlier owner's
// accesses (up to its free) happen before its next owner's (from its malloc).
char reuse_order;  // TSan's sync address for it

}  // namespace

void* device_malloc(std::size_t bytes) noexcept {
  if (!in_kernel()) return std::malloc(bytes);
  void* p = nullptr;
  {
    race::runtime_scope bookkeeping;
    p = heap().allocate(bytes);
  }
  race::acquire(&reuse_order);
  return p;
}

void device_free(void* p) noexcept {
  if (p == nullptr) return;
  if (in_kernel()) race::release(&reuse_order);
  bool released = false;
  {
    race::runtime_scope bookkeeping;
    released = heap().release(p);
  }
  if (released) return;
  if (!in_kernel()) {
    std::free(p);
    return;
  }
  worker::current()->fail_grid(fmt::format(
      "free() or delete in device code was given {}, which {}. Device code frees only what device code allocated "
      "(malloc, new or cudaMalloc in a kernel).",
      p, heap().holds(p) ? "is inside the device heap but not the start of a live allocation (freed twice?)"
                         : "does not come from the device heap"));
}

bool in_device_heap(const void* p) noexcept { return heap().holds(p); }

std::string describe_device_heap_address(const void* address) {
  heap_region* region = the_heap.load(std::memory_order_acquire);
  if (region == nullptr) return {};  // no heap yet: nothing in it
  const std::string where = region->describe(address);
  return where.empty() ? where : where + " of the device heap (malloc or new in a kernel)";
}

}  // namespace cusim::detail

void* operator new(std::size_t bytes, cusim::detail::device_heap_tag) noexcept {
  if (cusim::detail::current_thread == nullptr) return ::operator new(bytes, std::nothrow);
  return cusim::detail::device_malloc(bytes);
}

void* operator new[](std::size_t bytes, cusim::detail::device_heap_tag) noexcept {
  if (cusim::detail::current_thread == nullptr) return ::operator new[](bytes, std::nothrow);
  return cusim::detail::device_malloc(bytes);
}

// Called only when a constructor throws during a device-code new.
void operator delete(void* p, cusim::detail::device_heap_tag) noexcept {
  if (cusim::detail::in_device_heap(p)) {
    cusim::detail::device_free(p);
  } else {
    ::operator delete(p);
  }
}

void operator delete[](void* p, cusim::detail::device_heap_tag) noexcept {
  if (cusim::detail::in_device_heap(p)) {
    cusim::detail::device_free(p);
  } else {
    ::operator delete[](p);
  }
}
