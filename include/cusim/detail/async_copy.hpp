// What libcu++'s barrier, pipeline and atomic headers share: thread scopes,
// aligned_size_t, and the copy behind cuda::memcpy_async.
//
// cuda::memcpy_async copies at the call: when a barrier's phase or a
// pipeline's stage ends later, the bytes are there, as the GPU guarantees.
// (A GPU may also have them earlier; code that reads them before waiting
// is wrong there and may still pass here: docs/libraries.md.) Its promises
// are checked: aligned_size_t<N> says both pointers and the size are
// multiples of N, which the hardware's asynchronous copy relies on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cusim/detail/device_api.hpp>
#include <cusim/detail/device_memory_functions.hpp>

namespace cuda {

// Which threads an object synchronises (libcu++'s values).
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

// A size whose pointers and value are multiples of `Alignment`.
template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "cuda::aligned_size_t: the alignment must be a power of two");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  constexpr explicit aligned_size_t(std::size_t size) : value(size) {}
  constexpr operator std::size_t() const { return value; }
};

// What memcpy_async leaves to the barrier or pipeline: here nothing, as the
// copy is done when it returns.
enum class async_contract_fulfillment { none, async };

}  // namespace cuda

namespace cusim::detail {

template <class Shape>
struct copy_shape {
  static constexpr std::size_t alignment = 1;
};
template <std::size_t Alignment>
struct copy_shape<::cuda::aligned_size_t<Alignment>> {
  static constexpr std::size_t alignment = Alignment;
};

[[noreturn]] void report_misaligned_copy(const void* dst, const void* src, std::size_t bytes, std::size_t alignment,
                                         const char* file, unsigned int line);

// One thread's share of a copy that `ranks` threads make together (all of
// it when ranks is 1), after checking what `Shape` promises.
template <class Shape>
void async_copy(void* dst, const void* src, Shape size, std::size_t rank, std::size_t ranks, const char* file,
                unsigned int line) {
  const std::size_t bytes = static_cast<std::size_t>(size);
  constexpr std::size_t alignment = copy_shape<Shape>::alignment;
  if constexpr (alignment > 1) {
    if ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | bytes) % alignment != 0) {
      report_misaligned_copy(dst, src, bytes, alignment, file, line);
    }
  }
  const std::size_t share = (bytes + ranks - 1) / ranks, begin = share * rank;
  if (begin < bytes) {
    device_memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                  begin + share <= bytes ? share : bytes - begin);
  }
}

}  // namespace cusim::detail
