// Address checking, on in two builds: libcusim-memcheck, the runtime of
// programs built with cusim-cc --check=memory (itself uninstrumented, it
// calls AddressSanitizer's interface, which the program's ASan runtime
// provides), and AddressSanitizer builds of cusim itself. cusim then tells
// ASan which memory a kernel may touch: fiber stacks as they switch, each
// __shared__ variable and the dynamic part of a block's shared memory (with a
// poisoned redzone after each), device-heap allocations (with redzones, and a
// quarantine so that a freed block is not handed out again at once), and the
// tail of a cudaMalloc'd buffer that its 256-byte rounding adds.
//
// Elsewhere every function here is an empty inline and `redzone` is 0.
#pragma once
// Sources that include this header are compiled once per checking runtime;
// the others once for all (CUSIM_CHECKED_SOURCES, src/CMakeLists.txt).
#ifdef CUSIM_CHECK_INDEPENDENT
#error "this source includes a header that differs in the checking runtimes: list it in CUSIM_CHECKED_SOURCES (src/CMakeLists.txt)"
#endif
#include <cstddef>

#include <cusim/detail/config.hpp>

#if defined(CUSIM_SANITIZING_ADDRESSES) || defined(CUSIM_MEMORY_CHECK)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define CUSIM_ASAN 1
#endif

namespace cusim::detail::address_check {

#ifdef CUSIM_ASAN
inline constexpr bool enabled = true;
inline void poison(const void* begin, std::size_t bytes) { __asan_poison_memory_region(begin, bytes); }
inline void unpoison(const void* begin, std::size_t bytes) { __asan_unpoison_memory_region(begin, bytes); }
// An access the runtime makes for the program (inline PTX's loads and
// stores, src/ptx/): reported as the program's own would be.
inline void check_access(const void* begin, std::size_t bytes, bool write) {
  if (void* bad = __asan_region_is_poisoned(const_cast<void*>(begin), bytes)) {
    __asan_report_error(__builtin_extract_return_addr(__builtin_return_address(0)), __builtin_frame_address(0),
                        __builtin_frame_address(0), bad, write ? 1 : 0, bytes);
  }
}
// A host free (`api`: cudaFree, cudaFreeHost) was given `p`, which is not a
// live allocation: says whether it was one (a double free, with where it
// was allocated and freed) or never was.
void explain_bad_free(const char* api, const void* p);
#else
inline constexpr bool enabled = false;
inline void poison(const void*, std::size_t) {}
inline void unpoison(const void*, std::size_t) {}
inline void check_access(const void*, std::size_t, bool) {}
inline void explain_bad_free(const char*, const void*) {}
#endif

// Bytes left poisoned after each shared variable and heap block: more than
// an off-by-one of any element type, so the first bad access lands in it.
inline constexpr std::size_t redzone = enabled ? 32 : 0;

}  // namespace cusim::detail::address_check
