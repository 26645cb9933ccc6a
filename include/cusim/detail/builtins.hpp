// threadIdx, blockIdx, blockDim, gridDim and warpSize: TLS variables that
// the scheduler sets to the running CUDA thread's values when it switches
// fibers (and when a loop fiber moves on to the next thread), so device code
// sees the values of the thread it is, at the cost of one TLS load.
#pragma once
#include <cusim/detail/config.hpp>
#include <vector_types.h>

namespace cusim::detail {

class block_state;  // the engine's per-block state (src/sched/block.hpp)
class fiber;        // the engine's fiber (src/sched/fiber.hpp)

// What a block's threads did, counted for the kernel report (CUSIM_REPORT):
// the inline atomics and fences count here through thread_context, the
// scheduler counts the rest.
struct block_activity {
  unsigned long long atomics = 0;
  unsigned long long fences = 0;
  unsigned long long barriers = 0;          // __syncthreads (and tile syncs) completed
  unsigned long long warp_collectives = 0;  // shuffles, votes, match, reduce, __syncwarp completed
  unsigned long long device_launches = 0;   // kernels launched from the block's threads

  block_activity& operator+=(const block_activity& other) {
    atomics += other.atomics;
    fences += other.fences;
    barriers += other.barriers;
    warp_collectives += other.warp_collectives;
    device_launches += other.device_launches;
    return *this;
  }
  bool operator!=(const block_activity& other) const {
    return atomics != other.atomics || fences != other.fences || barriers != other.barriers ||
           warp_collectives != other.warp_collectives || device_launches != other.device_launches;
  }
};

// What one CUDA thread sees of itself. Owned by the fiber running the thread:
// a loop fiber rewrites it for each thread it runs in turn.
struct thread_context {
  // The thread's index while it does not run. The running thread's is
  // threadIdx, which the kernel's loop keeps (thread_loop.hpp), storing this
  // copy only when the thread waits: thread_index_of reads the right one.
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  // threadIdx.x + threadIdx.y*Dx + threadIdx.z*Dx*Dy. The watchdog reads
  // the running thread's from another OS thread: stored with set_linear_tid.
  unsigned int linear_tid;
  // Device-side cudaGetLastError: each CUDA thread has its own, which is
  // last_error when last_error_thread is the thread's linear_tid (so that a
  // loop starting the next thread need not clear it) and cudaSuccess else.
  int last_error;
  unsigned int last_error_thread;
  // Atomics and fences of the thread progress_thread (linear id), up to a
  // spin point every 64 (progress.hpp); another thread's count starts afresh.
  unsigned int progress_points;
  unsigned int progress_thread;
  block_state* block;
  block_activity* activity;  // the block's counters
  fiber* self;
};

extern CUSIM_THREAD_LOCAL thread_context* current_thread;

// Relaxed atomic: a plain store, which the watchdog may read while it happens.
inline void set_linear_tid(thread_context& t, unsigned int linear) {
  __atomic_store_n(&t.linear_tid, linear, __ATOMIC_RELAXED);
}

// Whether the caller runs in a CUDA thread. A __host__ __device__ function
// whose code depends on __CUDA_ARCH__ holds both passes' bodies and picks
// with this (tools/cusim-cc/device_pass.hpp); in a constant expression,
// the host's.
constexpr bool in_device_code() noexcept { return !__builtin_is_constant_evaluated() && current_thread != nullptr; }

// The running CUDA thread; only valid inside a kernel.
CUSIM_ALWAYS_INLINE const thread_context& this_thread_context() { return *current_thread; }

}  // namespace cusim::detail

// The built-in variables are variables, not macros, so that code may use
// their names for its own members (cudaLaunchConfig_t::gridDim) and locals.
// They are per OS thread; the scheduler stores the running CUDA thread's
// values in them at every switch (publish_builtins, src/sched/worker.hpp).
//
// blockIdx, blockDim and gridDim are const to the program, as CUDA declares
// them (device_launch_parameters.h: `extern const`; device code cannot
// assign them). The const tells the compiler what is true of a CUDA thread:
// they never change while it runs (a thread that waits gets its own values
// back before it resumes), and no code compiled against this header stores
// them (only the scheduler, in the runtime's sources: a function of the
// program runs inside one block). So g++ keeps them in registers across the
// kernel's stores and calls, which it cannot prove of a plain variable
// (cusim-cc compiles with -fno-strict-aliasing: any store might reach it);
// in W1 that took a third off the time. The runtime's sources see them
// without const (CUSIM_BUILDING_RUNTIME), so nothing there is assumed
// unchanged across a switch. (A variable declared const in some
// translation units and not in others has the same symbol in both.)
// threadIdx is not const: the kernel's thread loop (thread_loop.hpp),
// compiled into the program, stores it between the threads it runs, and
// g++ takes a const variable's value for unchanged even across such a
// store.
#ifdef CUSIM_BUILDING_RUNTIME
#define CUSIM_BUILTIN_CONST
#else
#define CUSIM_BUILTIN_CONST const
#endif
extern CUSIM_THREAD_LOCAL uint3 threadIdx;
extern CUSIM_BUILTIN_CONST CUSIM_THREAD_LOCAL uint3 blockIdx;
extern CUSIM_BUILTIN_CONST CUSIM_THREAD_LOCAL dim3 blockDim;
extern CUSIM_BUILTIN_CONST CUSIM_THREAD_LOCAL dim3 gridDim;
#ifndef warpSize
constexpr int warpSize = 32;
#endif

namespace cusim::detail {
// `t`'s thread index, for reports: threadIdx if `t` runs on this OS thread.
inline uint3 thread_index_of(const thread_context& t) { return &t == current_thread ? threadIdx : t.thread_idx; }

// The index of thread `linear` of a block of shape `dim` (x varies fastest).
inline uint3 thread_index_at(unsigned int linear, const dim3& dim) {
  return uint3{linear % dim.x, linear / dim.x % dim.y, linear / (dim.x * dim.y)};
}
// From the last thread of a row of a block of shape `dim` to the first of
// the next: the step that needs no division.
CUSIM_ALWAYS_INLINE void step_to_next_row(uint3& index, const dim3& dim) {
  index.x = 0;
  if (++index.y == dim.y) {
    index.y = 0;
    ++index.z;
  }
}
}  // namespace cusim::detail
