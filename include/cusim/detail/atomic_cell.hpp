// An atomic view of one object, as std::atomic_ref gives, on the compiler's
// __atomic builtins (GCC and clang; ThreadSanitizer instruments them as
// atomics). Every .cu file includes cuda_runtime.h, and in C++20 <atomic>
// brings <mutex>, <system_error> and <string> with it: most of the time a
// small kernel file took to compile (tests/toolchain/header_weight.cu
// keeps them out).
#pragma once
#include <type_traits>

namespace cusim::detail {

// The orders cusim's atomics use (atomic_functions.hpp says why).
inline constexpr int atomic_order = __ATOMIC_ACQ_REL;

template <class T>
class atomic_cell {
 public:
  explicit atomic_cell(T& object) : address_(__builtin_addressof(object)) {}

  T load(int order = __ATOMIC_SEQ_CST) const {
    T value;
    __atomic_load(address_, &value, order);
    return value;
  }
  T exchange(T value, int order = __ATOMIC_SEQ_CST) const {
    T old;
    __atomic_exchange(address_, &value, &old, order);
    return old;
  }
  // On failure `expected` becomes the value found.
  bool compare_exchange_strong(T& expected, T desired, int order = __ATOMIC_SEQ_CST) const {
    return __atomic_compare_exchange(address_, &expected, &desired, false, order, failure_order(order));
  }
  bool compare_exchange_weak(T& expected, T desired, int order = __ATOMIC_SEQ_CST) const {
    return __atomic_compare_exchange(address_, &expected, &desired, true, order, failure_order(order));
  }
  // Integers have single instructions; floating-point types swap in a loop.
  T fetch_add(T value, int order = __ATOMIC_SEQ_CST) const {
    if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(address_, value, order);
    else return update([value](T old) { return old + value; }, order);
  }
  T fetch_sub(T value, int order = __ATOMIC_SEQ_CST) const { return __atomic_fetch_sub(address_, value, order); }
  T fetch_and(T value, int order = __ATOMIC_SEQ_CST) const { return __atomic_fetch_and(address_, value, order); }
  T fetch_or(T value, int order = __ATOMIC_SEQ_CST) const { return __atomic_fetch_or(address_, value, order); }
  T fetch_xor(T value, int order = __ATOMIC_SEQ_CST) const { return __atomic_fetch_xor(address_, value, order); }

  // Stores `next(old)` atomically; returns the old value.
  template <class F>
  T update(F next, int order = __ATOMIC_SEQ_CST) const {
    T old = load(__ATOMIC_ACQUIRE);
    while (!compare_exchange_weak(old, next(old), order)) {
    }
    return old;
  }

 private:
  // What a failed compare-and-swap may use: no release part.
  static constexpr int failure_order(int order) {
    return order == __ATOMIC_ACQ_REL ? __ATOMIC_ACQUIRE : order == __ATOMIC_RELEASE ? __ATOMIC_RELAXED : order;
  }
  T* address_;
};

}  // namespace cusim::detail
