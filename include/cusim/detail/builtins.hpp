// threadIdx, blockIdx, blockDim, gridDim and warpSize. Each reads the running
// CUDA thread's context through one TLS pointer that the scheduler sets when
// it switches fibers, so device code sees the values of the thread it is.
#pragma once
#include <cusim/detail/config.hpp>
#include <vector_types.h>

namespace cusim::detail {

class block_state;  // the engine's per-block state (src/sched/block.hpp)
class fiber;        // the engine's fiber (src/fiber/fiber.hpp)

// What one CUDA thread sees of itself. Owned by the fiber running the thread:
// a loop fiber rewrites thread_idx for each thread it runs in turn.
struct thread_context {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned int linear_tid;  // threadIdx.x + threadIdx.y*Dx + threadIdx.z*Dx*Dy
  block_state* block;
  fiber* self;
};

extern CUSIM_THREAD_LOCAL thread_context* current_thread;

// The running CUDA thread; only valid inside a kernel.
CUSIM_ALWAYS_INLINE const thread_context& this_thread_context() { return *current_thread; }

}  // namespace cusim::detail

#define threadIdx (::cusim::detail::this_thread_context().thread_idx)
#define blockIdx (::cusim::detail::this_thread_context().block_idx)
#define blockDim (::cusim::detail::this_thread_context().block_dim)
#define gridDim (::cusim::detail::this_thread_context().grid_dim)
#ifndef warpSize
constexpr int warpSize = 32;
#endif
