// threadIdx, blockIdx, blockDim, gridDim and warpSize: TLS variables that
// the scheduler sets to the running CUDA thread's values when it switches
// fibers (and when a loop fiber moves on to the next thread), so device code
// sees the values of the thread it is, at the cost of one TLS load.
#pragma once
#include <cusim/detail/config.hpp>
#include <vector_types.h>

namespace cusim::detail {

class block_state;  // the engine's per-block state (src/sched/block.hpp)
class fiber;        // the engine's fiber (src/fiber/fiber.hpp)

// What a block's threads did, counted for the kernel report (CUSIM_REPORT):
// the inline atomics and fences count here through thread_context, the
// scheduler counts the rest. Every 64th atomic or fence of a block is also a
// spin point (progress.hpp).
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
};

// What one CUDA thread sees of itself. Owned by the fiber running the thread:
// a loop fiber rewrites thread_idx for each thread it runs in turn.
struct thread_context {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned int linear_tid;  // threadIdx.x + threadIdx.y*Dx + threadIdx.z*Dx*Dy
  // Device-side cudaGetLastError: each CUDA thread has its own. Beside
  // linear_tid, so that a new thread's two (its id, no error) are one store.
  int last_error;
  block_state* block;
  block_activity* activity;  // the block's counters
  fiber* self;
};

extern CUSIM_THREAD_LOCAL thread_context* current_thread;

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
// values in them at every switch (publish_builtins).
extern CUSIM_THREAD_LOCAL uint3 threadIdx;
extern CUSIM_THREAD_LOCAL uint3 blockIdx;
extern CUSIM_THREAD_LOCAL dim3 blockDim;
extern CUSIM_THREAD_LOCAL dim3 gridDim;
#ifndef warpSize
constexpr int warpSize = 32;
#endif

namespace cusim::detail {
inline void publish_builtins(const thread_context& t) {
  threadIdx = t.thread_idx;
  blockIdx = t.block_idx;
  blockDim = t.block_dim;
  gridDim = t.grid_dim;
}
}  // namespace cusim::detail
