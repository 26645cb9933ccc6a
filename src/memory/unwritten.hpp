// What Valgrind's memcheck is told about memory cusim hands out, so that a
// program run under it (an ordinary build) hears of reads of bytes nothing
// wrote, as compute-sanitizer's initcheck reports them on a GPU: a
// cudaMalloc'd buffer, and a block's shared memory, which starts unwritten
// in every block. Outside Valgrind each is a few instructions that do
// nothing; without Valgrind's headers, nothing.
#pragma once
#include <cstddef>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif

namespace cusim::detail {

inline void mark_unwritten([[maybe_unused]] void* p, [[maybe_unused]] std::size_t n) {
#if __has_include(<valgrind/memcheck.h>)
  VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#endif
}

inline void mark_no_access([[maybe_unused]] void* p, [[maybe_unused]] std::size_t n) {
#if __has_include(<valgrind/memcheck.h>)
  VALGRIND_MAKE_MEM_NOACCESS(p, n);
#endif
}

}  // namespace cusim::detail
