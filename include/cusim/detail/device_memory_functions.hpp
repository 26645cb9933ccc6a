// memcpy, memmove and memset in device code (cusim-cc rewrites the calls
// to these): the C library's. In builds whose hooks see every access
// (cusim-cc --check=init, --check=banks, --warp-mode=lockstep) they also
// tell the hooks of the accesses they make, which a library call hides from
// the instrumentation: a kernel's memcpy into device memory writes it, as
// compute-sanitizer's initcheck counts it.
#pragma once
#include <cstddef>
#include <cstring>

#ifdef __CUSIM_ACCESS_HOOKS__
extern "C" void __tsan_read_range(void* address, unsigned long size);
extern "C" void __tsan_write_range(void* address, unsigned long size);
#endif

namespace cusim::detail {

// What a copy reads and writes, told to the hooks of a checking build.
inline void tell_hooks_of_copy([[maybe_unused]] void* dst, [[maybe_unused]] const void* src,
                               [[maybe_unused]] std::size_t count) {
#ifdef __CUSIM_ACCESS_HOOKS__
  __tsan_read_range(const_cast<void*>(src), count);
  __tsan_write_range(dst, count);
#endif
}

inline void* device_memcpy(void* dst, const void* src, std::size_t count) {
  tell_hooks_of_copy(dst, src, count);
  return std::memcpy(dst, src, count);
}

inline void* device_memmove(void* dst, const void* src, std::size_t count) {
  tell_hooks_of_copy(dst, src, count);
  return std::memmove(dst, src, count);
}

inline void* device_memset(void* dst, int value, std::size_t count) {
#ifdef __CUSIM_ACCESS_HOOKS__
  __tsan_write_range(dst, count);
#endif
  return std::memset(dst, value, count);
}

}  // namespace cusim::detail
