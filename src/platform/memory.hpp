// Virtual memory, the platform's part: fiber stacks with guard pages below
// them, the device heap's regions. POSIX systems (Linux, macOS) reserve
// address space that is committed page by page as it is touched, and can
// say which pages are; the generic fallback (-DCUSIM_PLATFORM=generic, and
// any system without mmap) allocates ordinary zeroed memory, has no guard
// pages and cannot tell committed pages apart.
#pragma once
#include <cstddef>

namespace cusim::detail::platform {

std::size_t page_size();

// `bytes` (a multiple of the page size) of zeroed memory, page-aligned,
// committed as touched where the platform can; nullptr if there is none.
void* reserve_memory(std::size_t bytes);
void release_memory(void* p, std::size_t bytes);

// Returns the pages at [p, p + bytes) to the system, keeping the range
// reserved: they read as zero when touched again where the platform can
// return them; elsewhere (the generic fallback) they keep what they held.
void discard_memory(void* p, std::size_t bytes);

// Asks the system not to back [p, p + bytes) with huge pages: where it
// would (Linux's transparent huge pages set to "always"), touching one
// fiber stack would commit 2 MiB and make its neighbours' untouched pages
// look used.
void keep_small_pages(void* p, std::size_t bytes);

// How many separate memory mappings the process may hold (Linux:
// vm.max_map_count, 65530 by default), or 0 where there is no such limit or
// it is unknown. A guard page inside a reservation splits it: each guarded
// fiber stack costs two.
std::size_t mapping_limit();

// Whether make_guard works here (not in the generic fallback).
bool guard_pages_available();

// Makes the pages at [p, p + bytes) fault when touched; false where the
// platform cannot (the generic fallback).
bool make_guard(void* p, std::size_t bytes);

// Replaces the pages at [p, p + bytes) with fresh zeroed ones, forgetting
// what was there (ThreadSanitizer forgets it too: sched/race_check.hpp).
void renew_memory(void* p, std::size_t bytes);

// The index of the lowest of the `pages` pages from `p` that has been
// committed (touched), or `pages` when none has or the platform cannot say.
std::size_t lowest_committed_page(const void* p, std::size_t pages);

}  // namespace cusim::detail::platform
