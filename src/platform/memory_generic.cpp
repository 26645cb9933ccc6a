// Virtual memory where cusim has no platform layer for it
// (-DCUSIM_PLATFORM=generic, other systems): the C library's aligned
// allocations, no guard pages. CMake builds this file or memory_posix.cpp.
#include "platform/memory.hpp"

#include <cstdlib>
#include <cstring>

namespace cusim::detail::platform {

std::size_t page_size() { return 4096; }

void* reserve_memory(std::size_t bytes) {
  void* p = std::aligned_alloc(page_size(), bytes);
  if (p != nullptr) std::memset(p, 0, bytes);
  return p;
}

void release_memory(void* p, std::size_t) { std::free(p); }

bool guard_pages_available() { return false; }

bool make_guard(void*, std::size_t) { return false; }

void discard_memory(void*, std::size_t) {}

void keep_small_pages(void*, std::size_t) {}

std::size_t mapping_limit() { return 0; }

void renew_memory(void* p, std::size_t bytes) { std::memset(p, 0, bytes); }

std::size_t lowest_committed_page(const void*, std::size_t pages) { return pages; }

}  // namespace cusim::detail::platform
