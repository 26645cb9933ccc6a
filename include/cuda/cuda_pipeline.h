// <cuda_pipeline.h>: the pipeline primitives (the C form of a thread's
// cuda::pipeline). Copies are done when __pipeline_memcpy_async returns
// (include/cusim/detail/async_copy.hpp), so committing and waiting have
// nothing to wait for.
#pragma once
#include <cstddef>
#include <cstring>

#include <cusim/detail/async_copy.hpp>

// Copies size_and_align - zfill bytes and zero-fills the zfill after them;
// the size is 4, 8 or 16 bytes and both pointers are aligned to it.
inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global, std::size_t size_and_align,
                                    std::size_t zfill = 0, const char* file = __builtin_FILE(),
                                    unsigned int line = __builtin_LINE()) {
  if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align) {
    ::cusim::detail::trap("__pipeline_memcpy_async: the size must be 4, 8 or 16 bytes, and zfill at most the size", file, line);
  }
  if ((reinterpret_cast<std::size_t>(dst_shared) | reinterpret_cast<std::size_t>(src_global)) % size_and_align != 0) {
    ::cusim::detail::report_misaligned_copy(dst_shared, src_global, size_and_align, size_and_align, file, line);
  }
  // The source past the copied bytes may lie past the end of its buffer: zfill is how kernels handle edges.
  std::memcpy(dst_shared, src_global, size_and_align - zfill);
  std::memset(static_cast<char*>(dst_shared) + (size_and_align - zfill), 0, zfill);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(std::size_t) {}
template <class Barrier>
inline void __pipeline_arrive_on(Barrier*) {}
