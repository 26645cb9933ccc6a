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
#include <cmath>
#include <cstring>
#include <type_traits>

#include <cusim/detail/atomic16.hpp>
#include <cusim/detail/atomic_cell.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/device_intrinsics.hpp>
#include <cusim/detail/progress.hpp>
#include <vector_types.h>

namespace cusim::detail {

template <class T>
atomic_cell<T> atomic_at(T* address) {
  return atomic_cell<T>(*address);
}

// Applies `update(old)` atomically and returns the old value: the general
// form for the atomics that have no single atomic instruction.
template <class T, class F>
T atomic_update(T* address, F update) {
  note_progress_point();
  return atomic_at(address).update(update, atomic_order);
}

// Applies `operation` to the atomic reference at a progress point; returns
// what it returns (the old value).
template <class T, class F>
T atomic_apply(T* address, F operation) {
  note_progress_point();
  return operation(atomic_at(address));
}

}  // namespace cusim::detail

// CUDA declares its atomics as plain overloads, one per type, not as
// templates: the pointer picks the overload and the value converts to its
// type, so atomicAdd(unsigned*, 1) and atomicExch(int*, 0u) compile as they
// do with nvcc. Each is `operation` on `ref` (the atomic_cell) and `value`.
#define CUSIM_ATOMIC_(name, T, ...)                                                          \
  inline T name(T* address, T value) {                                                       \
    using cusim::detail::atomic_order;                                                       \
    return cusim::detail::atomic_apply(address, [value](cusim::detail::atomic_cell<T> ref) { return __VA_ARGS__; }); \
  }
#define CUSIM_ATOMIC_INTEGERS_(name, ...)              \
  CUSIM_ATOMIC_(name, int, __VA_ARGS__)                \
  CUSIM_ATOMIC_(name, unsigned int, __VA_ARGS__)       \
  CUSIM_ATOMIC_(name, unsigned long long, __VA_ARGS__)
// min and max have no single atomic instruction: compare and swap.
#define CUSIM_ATOMIC_EXTREME_(name, T, better)                                              \
  inline T name(T* address, T value) {                                                      \
    return cusim::detail::atomic_update(address, [value](T old) { return value better old ? value : old; }); \
  }
#define CUSIM_ATOMIC_EXTREMES_(T) CUSIM_ATOMIC_EXTREME_(atomicMin, T, <) CUSIM_ATOMIC_EXTREME_(atomicMax, T, >)

CUSIM_ATOMIC_INTEGERS_(atomicAdd, ref.fetch_add(value, atomic_order))
CUSIM_ATOMIC_(atomicSub, int, ref.fetch_sub(value, atomic_order))
CUSIM_ATOMIC_(atomicSub, unsigned int, ref.fetch_sub(value, atomic_order))
CUSIM_ATOMIC_INTEGERS_(atomicExch, ref.exchange(value, atomic_order))
CUSIM_ATOMIC_(atomicExch, float, ref.exchange(value, atomic_order))
CUSIM_ATOMIC_EXTREMES_(int)
CUSIM_ATOMIC_EXTREMES_(unsigned int)
CUSIM_ATOMIC_EXTREMES_(unsigned long long)
CUSIM_ATOMIC_EXTREMES_(long long)
CUSIM_ATOMIC_INTEGERS_(atomicAnd, ref.fetch_and(value, atomic_order))
CUSIM_ATOMIC_(atomicAnd, long long, ref.fetch_and(value, atomic_order))
CUSIM_ATOMIC_INTEGERS_(atomicOr, ref.fetch_or(value, atomic_order))
CUSIM_ATOMIC_(atomicOr, long long, ref.fetch_or(value, atomic_order))
CUSIM_ATOMIC_INTEGERS_(atomicXor, ref.fetch_xor(value, atomic_order))
CUSIM_ATOMIC_(atomicXor, long long, ref.fetch_xor(value, atomic_order))
#undef CUSIM_ATOMIC_EXTREMES_
#undef CUSIM_ATOMIC_EXTREME_
#undef CUSIM_ATOMIC_INTEGERS_
#undef CUSIM_ATOMIC_
// A failed swap is how a spin lock waits: always a spin point.
#define CUSIM_ATOMIC_CAS_(T)                                                                            \
  inline T atomicCAS(T* address, T compare, T value) {                                                  \
    const bool swapped = cusim::detail::atomic_at(address).compare_exchange_strong(compare, value,      \
                                                                                   cusim::detail::atomic_order); \
    cusim::detail::note_progress_point(swapped ? cusim::detail::progress_kind::atomic                    \
                                               : cusim::detail::progress_kind::failed_swap);           \
    return compare; /* the old value, whether or not the swap happened */                              \
  }
CUSIM_ATOMIC_CAS_(int)
CUSIM_ATOMIC_CAS_(unsigned int)
CUSIM_ATOMIC_CAS_(unsigned long long)
CUSIM_ATOMIC_CAS_(unsigned short)
#undef CUSIM_ATOMIC_CAS_
namespace cusim::detail {
// A GPU's float atomic add, as an H100 gives it (diff.generated.atomics.*):
// rounded to nearest, a NaN result the canonical 0x7fffffff; in global
// memory (atom.global.add.f32) denormal inputs and results flush to zero of
// their sign, in shared memory they stay.
inline float flushed(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline float atomic_float_sum(float old, float value, bool shared) {
  const float sum = shared ? old + value : flushed(flushed(old) + flushed(value));
  return sum != sum ? __builtin_bit_cast(float, 0x7fffffffu) : sum;
}
// A double one keeps denormals. A NaN operand: in global memory its bits
// come back unchanged, signalling or not (the added value's before the old
// one's); in shared memory (an add in a compare-and-swap loop) quieted, the
// old value's before the added one's.
inline double atomic_double_sum(double old, double value, bool shared) {
  if (shared) return propagated_nan(old + value, value, old);
  if (value != value) return value;
  return old != old ? old : old + value;
}
}  // namespace cusim::detail
inline float atomicAdd(float* address, float value) {
  const bool shared = cusim::detail::in_shared_memory(address);
  return cusim::detail::atomic_update(
      address, [value, shared](float old) { return cusim::detail::atomic_float_sum(old, value, shared); });
}
inline double atomicAdd(double* address, double value) {
  const bool shared = cusim::detail::in_shared_memory(address);
  return cusim::detail::atomic_update(
      address, [value, shared](double old) { return cusim::detail::atomic_double_sum(old, value, shared); });
}
// sm_90's vector adds: each element is one atomic add, as CUDA promises
// (the vector as a whole is not atomic). nvcc takes them for sm_90 and
// later, on global memory; cusim on every profile and address.
inline float2 atomicAdd(float2* address, float2 value) {
  return float2{atomicAdd(&address->x, value.x), atomicAdd(&address->y, value.y)};
}
inline float4 atomicAdd(float4* address, float4 value) {
  return float4{atomicAdd(&address->x, value.x), atomicAdd(&address->y, value.y), atomicAdd(&address->z, value.z),
                atomicAdd(&address->w, value.w)};
}
// ((old >= limit) ? 0 : old + 1) and ((old == 0 || old > limit) ? limit : old - 1), as CUDA defines them.
inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  return cusim::detail::atomic_update(address, [limit](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  return cusim::detail::atomic_update(address,
                                      [limit](unsigned int old) { return old == 0 || old > limit ? limit : old - 1; });
}

// sm_90's 16-byte atomics: the built-ins nvcc's headers call, and atomicCAS
// and atomicExch of any trivially copyable 16-byte type aligned to 16
// (float4, double2, a struct of two pointers), which those templates take.
// (nvcc takes them in device code for sm_90 and later only; cusim on every
// profile.)
inline void __u128AtomicCAS(void* address, void* compare, void* value, void* old) {
  std::memcpy(old, compare, 16);
  const bool swapped = cusim::detail::compare_exchange_16(address, old, value);
  cusim::detail::note_progress_point(swapped ? cusim::detail::progress_kind::atomic
                                             : cusim::detail::progress_kind::failed_swap);
}
inline void __u128AtomicExch(void* address, void* value, void* old) {
  // The first guess (zeros) costs a second swap unless it is right; reading
  // the value first would race with the other threads' swaps.
  std::memset(old, 0, 16);
  while (!cusim::detail::compare_exchange_16(address, old, value)) {
  }
  cusim::detail::note_progress_point();
}
inline void __u128AtomicCAS_block(void* address, void* compare, void* value, void* old) {
  __u128AtomicCAS(address, compare, value, old);
}
inline void __u128AtomicCAS_system(void* address, void* compare, void* value, void* old) {
  __u128AtomicCAS(address, compare, value, old);
}
inline void __u128AtomicExch_block(void* address, void* value, void* old) { __u128AtomicExch(address, value, old); }
inline void __u128AtomicExch_system(void* address, void* value, void* old) { __u128AtomicExch(address, value, old); }

namespace cusim::detail {
template <class T>
inline constexpr bool is_atomic16 = sizeof(T) == 16 && alignof(T) >= 16 && std::is_trivially_copyable_v<T>;
// Storage for a T that may have no default constructor.
template <class T>
union atomic16_result {
  atomic16_result() {}
  T value;
};
}  // namespace cusim::detail

template <class T, std::enable_if_t<cusim::detail::is_atomic16<T>, int> = 0>
T atomicCAS(T* address, T compare, T value) {
  cusim::detail::atomic16_result<T> old;
  __u128AtomicCAS(address, &compare, &value, &old.value);
  return old.value;
}
template <class T, std::enable_if_t<cusim::detail::is_atomic16<T>, int> = 0>
T atomicExch(T* address, T value) {
  cusim::detail::atomic16_result<T> old;
  __u128AtomicExch(address, &value, &old.value);
  return old.value;
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

// CUDA 12.8's atomic built-ins (__nv_atomic_load_n, __nv_atomic_fetch_add,
// ...), as templates on the pointer's type. Their orders are C++'s, with
// the compiler's numbers; each is strengthened to at least cusim's order
// (acquire for a load, release for a store, both for the rest), for the
// reason at the top of this file. Every scope is the whole machine.
enum {
  __NV_ATOMIC_RELAXED = __ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME = __ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE = __ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE = __ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL = __ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST = __ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

namespace cusim::detail {
// A value parameter that takes the pointer's type (C++20's type_identity_t;
// these headers also compile as C++17 host code).
template <class T>
using non_deduced = typename std::enable_if<true, T>::type;
constexpr int load_order(int order) { return order == __ATOMIC_SEQ_CST ? order : __ATOMIC_ACQUIRE; }
constexpr int store_order(int order) { return order == __ATOMIC_SEQ_CST ? order : __ATOMIC_RELEASE; }
constexpr int update_order(int order) { return order == __ATOMIC_SEQ_CST ? order : __ATOMIC_ACQ_REL; }
// The value a progress point follows.
template <class T>
T after_progress_point(T value) {
  note_progress_point();
  return value;
}
}  // namespace cusim::detail

template <class T>
std::remove_const_t<T> __nv_atomic_load_n(T* address, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  return cusim::detail::after_progress_point(__atomic_load_n(address, cusim::detail::load_order(order)));
}
template <class T>
void __nv_atomic_load(T* address, std::remove_const_t<T>* result, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_load(address, result, cusim::detail::load_order(order));
  cusim::detail::note_progress_point();
}
template <class T>
void __nv_atomic_store_n(T* address, cusim::detail::non_deduced<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_store_n(address, value, cusim::detail::store_order(order));
  cusim::detail::note_progress_point();
}
template <class T>
void __nv_atomic_store(T* address, T* value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_store(address, value, cusim::detail::store_order(order));
  cusim::detail::note_progress_point();
}
template <class T>
T __nv_atomic_exchange_n(T* address, cusim::detail::non_deduced<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  return cusim::detail::after_progress_point(__atomic_exchange_n(address, value, cusim::detail::update_order(order)));
}
template <class T>
void __nv_atomic_exchange(T* address, T* value, T* old, int order, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_exchange(address, value, old, cusim::detail::update_order(order));
  cusim::detail::note_progress_point();
}
// On failure *expected becomes the value found; a failed swap is a spin point, as atomicCAS's.
template <class T>
bool __nv_atomic_compare_exchange(T* address, T* expected, T* desired, bool weak, int success, int failure,
                                  int = __NV_THREAD_SCOPE_SYSTEM) {
  const bool swapped = __atomic_compare_exchange(address, expected, desired, weak, cusim::detail::update_order(success),
                                                 cusim::detail::load_order(failure));
  cusim::detail::note_progress_point(swapped ? cusim::detail::progress_kind::atomic
                                             : cusim::detail::progress_kind::failed_swap);
  return swapped;
}
template <class T>
bool __nv_atomic_compare_exchange_n(T* address, T* expected, cusim::detail::non_deduced<T> desired, bool weak, int success,
                                    int failure, int scope = __NV_THREAD_SCOPE_SYSTEM) {
  return __nv_atomic_compare_exchange(address, expected, &desired, weak, success, failure, scope);
}
// __nv_atomic_fetch_add and the rest: `operation` on `ref` (the atomic_cell)
// and `value` in the order `order`; each returns the old value.
#define CUSIM_NV_ATOMIC_FETCH_(name, ...)                                                                       \
  template <class T>                                                                                            \
  T name(T* address, cusim::detail::non_deduced<T> value, int order, int = __NV_THREAD_SCOPE_SYSTEM) {                \
    order = cusim::detail::update_order(order);                                                                 \
    return cusim::detail::atomic_apply(address, [value, order](cusim::detail::atomic_cell<T> ref) { return __VA_ARGS__; }); \
  }
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_add, ref.fetch_add(value, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_sub, ref.update([value](T old) { return static_cast<T>(old - value); }, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_and, ref.fetch_and(value, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_or, ref.fetch_or(value, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_xor, ref.fetch_xor(value, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_min, ref.update([value](T old) { return value < old ? value : old; }, order))
CUSIM_NV_ATOMIC_FETCH_(__nv_atomic_fetch_max, ref.update([value](T old) { return old < value ? value : old; }, order))
#undef CUSIM_NV_ATOMIC_FETCH_
// A fence is a full fence and a progress point, as __threadfence is.
inline void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  cusim::detail::note_progress_point(cusim::detail::progress_kind::fence);
}
