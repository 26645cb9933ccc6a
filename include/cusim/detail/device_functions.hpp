// CUDA's device-side functions that cusim implements in C++: block
// barriers, memory fences, clocks and atomics. Atomics are real atomics:
// blocks run on several OS threads at once.
#pragma once
#include <atomic>
#include <chrono>
#include <climits>
#include <type_traits>

#include <cusim/detail/device_api.hpp>

inline void __syncthreads() { cusim::detail::block_barrier(0); }
inline int __syncthreads_count(int predicate) {
  return static_cast<int>(cusim::detail::block_barrier(predicate).true_count);
}
inline int __syncthreads_and(int predicate) {
  const auto outcome = cusim::detail::block_barrier(predicate);
  return outcome.true_count == outcome.arrived;
}
inline int __syncthreads_or(int predicate) { return cusim::detail::block_barrier(predicate).true_count != 0; }

inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace cusim::detail {

template <class T>
std::atomic_ref<T> atomic_at(T* address) {
  return std::atomic_ref<T>(*address);
}

// Applies `update(old)` atomically and returns the old value: the general
// form for the atomics that have no single std::atomic operation.
template <class T, class F>
T atomic_update(T* address, F update) {
  auto ref = atomic_at(address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_relaxed)) {
  }
  return old;
}

template <class T>
concept atomic_integer = std::is_same_v<T, int> || std::is_same_v<T, unsigned int> ||
                         std::is_same_v<T, unsigned long long> || std::is_same_v<T, long long>;
template <class T>
concept atomic_arith = atomic_integer<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace cusim::detail

template <cusim::detail::atomic_arith T>
T atomicAdd(T* address, T value) {
  return cusim::detail::atomic_at(address).fetch_add(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_integer T>
T atomicSub(T* address, T value) {
  return cusim::detail::atomic_at(address).fetch_sub(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_arith T>
T atomicExch(T* address, T value) {
  return cusim::detail::atomic_at(address).exchange(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_integer T>
T atomicMin(T* address, T value) {
  return cusim::detail::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <cusim::detail::atomic_integer T>
T atomicMax(T* address, T value) {
  return cusim::detail::atomic_update(address, [value](T old) { return value > old ? value : old; });
}
template <cusim::detail::atomic_integer T>
T atomicAnd(T* address, T value) {
  return cusim::detail::atomic_at(address).fetch_and(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_integer T>
T atomicOr(T* address, T value) {
  return cusim::detail::atomic_at(address).fetch_or(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_integer T>
T atomicXor(T* address, T value) {
  return cusim::detail::atomic_at(address).fetch_xor(value, std::memory_order_relaxed);
}
template <cusim::detail::atomic_integer T>
T atomicCAS(T* address, T compare, T value) {
  cusim::detail::atomic_at(address).compare_exchange_strong(compare, value, std::memory_order_relaxed);
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
