// Virtual memory on Linux and macOS: mmap reservations, guard pages,
// discarded and committed pages (platform/memory.hpp). CMake builds this
// file or memory_generic.cpp.
#include "platform/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

namespace cusim::detail::platform {

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

void* reserve_memory(std::size_t bytes) {
#ifdef MAP_NORESERVE
  constexpr int no_reserve = MAP_NORESERVE;  // committed as touched, not counted up front
#else
  constexpr int no_reserve = 0;
#endif
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | no_reserve, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void release_memory(void* p, std::size_t bytes) { munmap(p, bytes); }

bool guard_pages_available() { return true; }

bool make_guard(void* p, std::size_t bytes) { return mprotect(p, bytes, PROT_NONE) == 0; }

void discard_memory(void* p, std::size_t bytes) { madvise(p, bytes, MADV_DONTNEED); }

void keep_small_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) {
#ifdef MADV_NOHUGEPAGE
  madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
}

std::size_t mapping_limit() {
#if defined(__linux__)
  static const std::size_t limit = [] {
    std::size_t value = 0;
    if (std::FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r")) {
      unsigned long long read = 0;
      if (std::fscanf(file, "%llu", &read) == 1) value = static_cast<std::size_t>(read);
      std::fclose(file);
    }
    return value;
  }();
  return limit;
#else
  return 0;
#endif
}

void renew_memory(void* p, std::size_t bytes) {
  mmap(p, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

std::size_t lowest_committed_page(const void* p, std::size_t pages) {
  if (pages == 0) return 0;
  // One byte per 4 KiB, the smallest page there is, though pages * page_size()
  // needs fewer where pages are larger: qemu-user emulating 64 KiB pages on
  // a 4 KiB host fills one byte per host page, and must not write past the end.
  const std::size_t room = pages * (page_size() / 4096 > 0 ? page_size() / 4096 : 1);
#if defined(__APPLE__)
  std::vector<char> resident(room);
#else
  std::vector<unsigned char> resident(room);
#endif
  if (mincore(const_cast<void*>(p), pages * page_size(), resident.data()) != 0) return pages;
  // Where mincore answers per smaller host page, a page counts as committed
  // when any of its parts is.
  const std::size_t parts = room / pages;
  for (std::size_t i = 0; i < room; ++i) {
    if ((resident[i] & 1) != 0) return i / parts;
  }
  return pages;
}

}  // namespace cusim::detail::platform
