// Forward progress for spinning threads. A CUDA thread that waits for another
// in a loop (a spin lock, a flag) must let that other thread run: on a GPU
// they run at once, here they share a worker. Failed compare-and-swaps,
// __nanosleep, and every 64th atomic or fence of a worker are points where
// the running thread steps aside for the others of its block (starting the
// ones not yet started) and comes back after them.
#pragma once
#include <cusim/detail/config.hpp>

namespace cusim::detail {

// Steps aside now, if anything else of the block can run.
void spin_point();

extern CUSIM_THREAD_LOCAL unsigned int atomics_since_spin_point;

// An atomic or a fence: every 64th is a spin point.
#ifdef __SANITIZE_THREAD__
// Race checking (cusim-cc --check=race): the count is cusim's, not the
// kernel's, so it is kept by the runtime, out of ThreadSanitizer's sight.
void note_progress_point_in_runtime();
inline void note_progress_point() { note_progress_point_in_runtime(); }
#else
CUSIM_ALWAYS_INLINE void note_progress_point() {
  if ((++atomics_since_spin_point & 63u) == 0) spin_point();
}
#endif

}  // namespace cusim::detail
