#include "memory/small_buffers.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "memory/free_ranges.hpp"
#include "platform/memory.hpp"
#include "support/address_check.hpp"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CUSIM_UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define CUSIM_UNDER_VALGRIND() false
#endif

namespace cusim::detail::small_buffers {

namespace {

// Reserved as address space, committed page by page as buffers touch it.
constexpr std::size_t region_size = std::size_t{64} << 20;

struct region {
  char* base;
  free_ranges free;
};

struct regions {
  std::mutex mutex;
  std::vector<region> all;
};

// Never destroyed: kernels may still run while statics are destroyed at
// exit (allocations.cpp's table says why).
regions& the_regions() {
  static regions& r = *new regions;
  return r;
}

}  // namespace

bool used() {
#if defined(CUSIM_RACE_CHECK) || defined(CUSIM_SANITIZING_THREADS)
  constexpr bool race_checked = true;
#else
  constexpr bool race_checked = false;
#endif
  static const bool in_regions = !address_check::enabled && !race_checked && !CUSIM_UNDER_VALGRIND();
  return in_regions;
}

void* take(std::size_t size) {
  regions& r = the_regions();
  std::lock_guard lock(r.mutex);
  for (region& each : r.all) {
    if (const auto offset = each.free.take(size)) return each.base + *offset;
  }
  auto* base = static_cast<char*>(platform::reserve_memory(region_size));
  if (base == nullptr) return nullptr;
  region& added = r.all.emplace_back(region{base, free_ranges(region_size)});
  return added.base + *added.free.take(size);
}

void give_back(void* p, std::size_t size) {
  regions& r = the_regions();
  std::lock_guard lock(r.mutex);
  auto* at = static_cast<char*>(p);
  auto holder = std::find_if(r.all.begin(), r.all.end(),
                             [&](const region& each) { return at >= each.base && at < each.base + region_size; });
  if (holder != r.all.end()) holder->free.give_back(static_cast<std::size_t>(at - holder->base), size);
}

}  // namespace cusim::detail::small_buffers
