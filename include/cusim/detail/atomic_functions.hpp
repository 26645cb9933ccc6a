// CUDA's atomic functions, for the types CUDA gives each: real atomics
// (blocks run on several OS threads at once) and progress points
// (progress.hpp) so that a thread spinning on one lets the thread it waits
// for run. The _block and _system variants behave as the plain ones: on one
// CPU every scope is the whole machine.
//
// CUDA's atomics are relaxed; these are acquire-release. On x86 the machine
// code is the same, and ThreadSanitizer, which does not model fences, then
// sees the usual CUDA patterns (a spin lock with __threadfence, the last
// block reading what the others wrote) as synchronised, not as races. Code
// that needs a fence it lacks is not caught this way (docs/design.md).
#pragma once
#include <atomic>
#include <type_traits>

#include <cusim/detail/progress.hpp>

namespace cusim::detail {

template <class T>
std::atomic_ref<T> atomic_at(T* address) {
  return std::atomic_ref<T>(*address);
}

// Applies `update(old)` atomically and returns the old value: the general
// form for the atomics that have no single std::atomic operation.
template <class T, class F>
T atomic_update(T* address, F update) {
  note_progress_point();
  auto ref = atomic_at(address);
  T old = ref.load(std::memory_order_acquire);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_acq_rel)) {
  }
  return old;
}

template <class T, class... U>
concept one_of = (std::is_same_v<T, U> || ...);
// The types of each family of CUDA atomics.
template <class T>
concept atomic_add_type = one_of<T, int, unsigned int, unsigned long long, float, double>;
template <class T>
concept atomic_exchange_type = one_of<T, int, unsigned int, unsigned long long, float>;
template <class T>
concept atomic_min_max_type = one_of<T, int, unsigned int, unsigned long long, long long>;
template <class T>
concept atomic_bitwise_type = one_of<T, int, unsigned int, unsigned long long, long long>;
template <class T>
concept atomic_cas_type = one_of<T, int, unsigned int, unsigned long long, unsigned short>;

}  // namespace cusim::detail

template <cusim::detail::atomic_add_type T>
T atomicAdd(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).fetch_add(value, std::memory_order_acq_rel);
}
template <cusim::detail::one_of<int, unsigned int> T>
T atomicSub(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).fetch_sub(value, std::memory_order_acq_rel);
}
template <cusim::detail::atomic_exchange_type T>
T atomicExch(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).exchange(value, std::memory_order_acq_rel);
}
template <cusim::detail::atomic_min_max_type T>
T atomicMin(T* address, T value) {
  return cusim::detail::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <cusim::detail::atomic_min_max_type T>
T atomicMax(T* address, T value) {
  return cusim::detail::atomic_update(address, [value](T old) { return value > old ? value : old; });
}
template <cusim::detail::atomic_bitwise_type T>
T atomicAnd(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).fetch_and(value, std::memory_order_acq_rel);
}
template <cusim::detail::atomic_bitwise_type T>
T atomicOr(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).fetch_or(value, std::memory_order_acq_rel);
}
template <cusim::detail::atomic_bitwise_type T>
T atomicXor(T* address, T value) {
  cusim::detail::note_progress_point();
  return cusim::detail::atomic_at(address).fetch_xor(value, std::memory_order_acq_rel);
}
// A failed swap is how a spin lock waits: always a spin point.
template <cusim::detail::atomic_cas_type T>
T atomicCAS(T* address, T compare, T value) {
  const bool swapped =
      cusim::detail::atomic_at(address).compare_exchange_strong(compare, value, std::memory_order_acq_rel);
  cusim::detail::note_progress_point(swapped ? cusim::detail::progress_kind::atomic
                                             : cusim::detail::progress_kind::failed_swap);
  return compare;  // the old value, whether or not the swap happened
}
// ((old >= limit) ? 0 : old + 1) and ((old == 0 || old > limit) ? limit : old - 1), as CUDA defines them.
inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  return cusim::detail::atomic_update(address, [limit](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  return cusim::detail::atomic_update(address,
                                      [limit](unsigned int old) { return old == 0 || old > limit ? limit : old - 1; });
}

// atomicAdd_block, atomicAdd_system, ...: the same operation.
#define CUSIM_SCOPED_ATOMICS_(name)                                   \
  template <class T, class... U>                                      \
  auto name##_block(T* address, U... values)->decltype(name(address, values...)) { \
    return name(address, values...);                                  \
  }                                                                   \
  template <class T, class... U>                                      \
  auto name##_system(T* address, U... values)->decltype(name(address, values...)) { \
    return name(address, values...);                                  \
  }
CUSIM_SCOPED_ATOMICS_(atomicAdd)
CUSIM_SCOPED_ATOMICS_(atomicSub)
CUSIM_SCOPED_ATOMICS_(atomicExch)
CUSIM_SCOPED_ATOMICS_(atomicMin)
CUSIM_SCOPED_ATOMICS_(atomicMax)
CUSIM_SCOPED_ATOMICS_(atomicAnd)
CUSIM_SCOPED_ATOMICS_(atomicOr)
CUSIM_SCOPED_ATOMICS_(atomicXor)
CUSIM_SCOPED_ATOMICS_(atomicCAS)
CUSIM_SCOPED_ATOMICS_(atomicInc)
CUSIM_SCOPED_ATOMICS_(atomicDec)
#undef CUSIM_SCOPED_ATOMICS_
