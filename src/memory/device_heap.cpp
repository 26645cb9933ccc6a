// The device heap (include/cusim/detail/device_heap.hpp): one region of
// cudaLimitMallocHeapSize bytes, reserved when a kernel first allocates,
// split first-fit into 16-byte-aligned blocks. A mutex guards it: device
// code on several workers allocates at once. In AddressSanitizer builds
// everything not handed out is poisoned, so a kernel that runs past its
// allocation is caught.
#include <cusim/detail/device_heap.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

#include <cusim/detail/builtins.hpp>
#include <driver_types.h>

#include "api/limits.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define CUSIM_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define CUSIM_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define CUSIM_POISON(p, n) ((void)(p), (void)(n))
#define CUSIM_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace cusim::detail {

namespace {

constexpr std::size_t heap_alignment = 16;

class heap_region {
 public:
  // Reserves the region on first use, at the size the limit has then.
  void* allocate(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    if (base_ == nullptr && !reserve()) return nullptr;
    const std::size_t size = std::max(heap_alignment, (bytes + heap_alignment - 1) / heap_alignment * heap_alignment);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < size) continue;
      const std::size_t offset = it->first;
      const std::size_t left = it->second - size;
      free_.erase(it);
      if (left > 0) free_.emplace(offset + size, left);
      used_.emplace(offset, size);
      CUSIM_UNPOISON(base_ + offset, size);
      return base_ + offset;
    }
    return nullptr;  // full, as a GPU's heap gives nullptr
  }

  // False when `p` is not the start of a live allocation.
  bool release(void* p) {
    std::lock_guard lock(mutex_);
    if (!holds(p)) return false;
    const std::size_t offset = static_cast<std::size_t>(static_cast<char*>(p) - base_);
    auto it = used_.find(offset);
    if (it == used_.end()) return false;
    std::size_t start = offset, size = it->second;
    used_.erase(it);
    CUSIM_POISON(base_ + start, size);
    // Merge with the free neighbours.
    auto next = free_.lower_bound(start);
    if (next != free_.end() && next->first == start + size) {
      size += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == start) {
        start = prev->first;
        size += prev->second;
        free_.erase(prev);
      }
    }
    free_.emplace(start, size);
    return true;
  }

  bool holds(const void* p) const {
    const auto* c = static_cast<const char*>(p);
    return base_ != nullptr && c >= base_ && c < base_ + size_;
  }

 private:
  bool reserve() {
    std::size_t bytes = 0;
    read_limit(cudaLimitMallocHeapSize, bytes);
    bytes = std::max(heap_alignment, (bytes + heap_alignment - 1) / heap_alignment * heap_alignment);
    void* region = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) return false;
    base_ = static_cast<char*>(region);
    size_ = bytes;
    free_.emplace(0, bytes);
    CUSIM_POISON(base_, size_);
    return true;
  }

  std::mutex mutex_;
  char* base_ = nullptr;
  std::size_t size_ = 0;
  std::map<std::size_t, std::size_t> free_;            // offset -> size, ordered for first fit and merging
  std::unordered_map<std::size_t, std::size_t> used_;  // offset -> size
};

heap_region& heap() {
  static heap_region* region = new heap_region;  // never destroyed: kernels may free at exit
  return *region;
}

bool in_kernel() { return current_thread != nullptr; }

}  // namespace

void* device_malloc(std::size_t bytes) noexcept {
  if (!in_kernel()) return std::malloc(bytes);
  return heap().allocate(bytes);
}

void device_free(void* p) noexcept {
  if (p == nullptr) return;
  if (heap().release(p)) return;
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
