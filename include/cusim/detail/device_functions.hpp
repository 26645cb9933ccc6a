// CUDA's device-side functions that cusim implements in C++: block
// barriers, memory fences, sleeps, clocks, cache-hinted loads and stores;
// atomics are in atomic_functions.hpp.
#pragma once
#include <climits>
#include <time.h>  // clock(), which kernels call without including it, as nvcc's headers allow
#include <type_traits>

#include <cusim/detail/atomic_functions.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/progress.hpp>

// The call site comes along (defaults evaluated where the kernel calls), for
// the reports of a barrier reached from two places or with threads gone.
inline void __syncthreads(const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  cusim::detail::block_barrier(0, file, line);
}
inline int __syncthreads_count(int predicate, const char* file = __builtin_FILE(),
                               unsigned int line = __builtin_LINE()) {
  return static_cast<int>(cusim::detail::block_barrier(predicate, file, line).true_count);
}
inline int __syncthreads_and(int predicate, const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  const auto outcome = cusim::detail::block_barrier(predicate, file, line);
  return outcome.true_count == outcome.arrived;
}
inline int __syncthreads_or(int predicate, const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  return cusim::detail::block_barrier(predicate, file, line).true_count != 0;
}

// Fences are full fences; a loop of them is how some code waits for a flag,
// so they are progress points too.
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  cusim::detail::note_progress_point(cusim::detail::progress_kind::fence);
}
inline void __threadfence() { __threadfence_block(); }
inline void __threadfence_system() { __threadfence_block(); }
inline void __threadfence_cluster() { __threadfence_block(); }

// Address-space conversions. cusim has one flat address space (shared,
// local and constant memory are host memory), so a state space's address
// is the generic one (a 64-bit value: code that keeps only 32 bits of a
// shared address, as `cvta.to.shared.u32` does, loses it). The block's
// shared memory starts 1 KiB aligned, so the low bits, which swizzled
// layouts compute with, are its offset there, as on a GPU.
inline decltype(sizeof(0)) __cvta_generic_to_global(const void* p) { return reinterpret_cast<decltype(sizeof(0))>(p); }
inline decltype(sizeof(0)) __cvta_generic_to_shared(const void* p) { return __cvta_generic_to_global(p); }
inline decltype(sizeof(0)) __cvta_generic_to_constant(const void* p) { return __cvta_generic_to_global(p); }
inline decltype(sizeof(0)) __cvta_generic_to_local(const void* p) { return __cvta_generic_to_global(p); }
inline void* __cvta_global_to_generic(decltype(sizeof(0)) bits) { return reinterpret_cast<void*>(bits); }
inline void* __cvta_shared_to_generic(decltype(sizeof(0)) bits) { return __cvta_global_to_generic(bits); }
inline void* __cvta_constant_to_generic(decltype(sizeof(0)) bits) { return __cvta_global_to_generic(bits); }
inline void* __cvta_local_to_generic(decltype(sizeof(0)) bits) { return __cvta_global_to_generic(bits); }

// A profiler's trigger: nothing listens here.
inline void __prof_trigger(int) {}

// A trap ends the kernel: it fails with cudaErrorLaunchFailure, reported
// with the thread and the line. A breakpoint with no debugger attached (a
// GPU's, or here) does the same.
[[noreturn]] inline void __trap(const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  cusim::detail::trap("__trap()", file, line);
}
[[noreturn]] inline void __brkpt(const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  cusim::detail::trap("__brkpt()", file, line);
}

// A thread that sleeps waits for others: let them run.
inline void __nanosleep(unsigned int) { cusim::detail::spin_point(); }

// The SM clocks: cycles at the profile's clock rate (cudaDevAttrClockRate).
// A thread reading the clock is usually waiting for time to pass (a spin
// until N cycles, a timed section): it lets the others of its block run
// meanwhile, so that a block's threads wait together, as on a GPU, instead
// of one after another.
inline long long clock64() { return cusim::detail::device_clock_cycles(); }

// clock() is C's clock(), which CUDA compiles for the device too: cusim's
// runtime defines it (src/sched/device_api.cpp) as C's in host code and as
// the SM clock's low 32 bits, at a spin point, in a kernel. The front end
// learns that from this declaration (C's has no mark).
#if defined(__CUSIM_KERNEL_FACTS__)
extern "C" CUSIM_FACT(spins) clock_t clock() noexcept;
#endif

// Loads and stores with cache hints: plain loads and stores on a CPU.
template <class T>
T __ldg(const T* address) { return *address; }
template <class T>
T __ldcg(const T* address) { return *address; }
template <class T>
T __ldca(const T* address) { return *address; }
template <class T>
T __ldcs(const T* address) { return *address; }
template <class T>
T __ldlu(const T* address) { return *address; }
template <class T>
T __ldcv(const T* address) { return *address; }
template <class T>
void __stwb(T* address, T value) { *address = value; }
template <class T>
void __stcg(T* address, T value) { *address = value; }
template <class T>
void __stcs(T* address, T value) { *address = value; }
template <class T>
void __stwt(T* address, T value) { *address = value; }
