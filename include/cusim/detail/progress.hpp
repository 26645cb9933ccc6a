// Forward progress for spinning threads. A CUDA thread that waits for another
// in a loop (a spin lock, a flag) must let that other thread run: on a GPU
// they run at once, here they share a worker. Failed compare-and-swaps,
// __nanosleep, and every 64th atomic or fence of a thread are points where
// the running thread steps aside for the others of its block (starting the
// ones not yet started) and comes back after them. Per thread, not per
// block: a thread that waits on atomics makes many, while threads that make
// one or two each (a histogram) wait for nothing, and a spin point every
// 64 of the block's made them give their fiber away four times a block.
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/config.hpp>

namespace cusim::detail {

// Steps aside now, if anything else of the block can run. `polling`: the
// thread may be waiting for another thread's work (an atomic, a failed
// compare-and-swap, __nanosleep), not for time to pass (clock64) or for its
// warp (lockstep mode): threads that poll long enough bring in more blocks
// (worker::room_for_spinners).
CUSIM_FACT(spins) void spin_point(bool polling = true);

// What reached a progress point: an atomic, a compare-and-swap that failed
// (how a spin lock waits), or a fence.
enum class progress_kind { atomic, failed_swap, fence };

// Counts the operation for the block's report and for the thread; every
// 64th of a thread is a spin point, and every 4th of its operations that is
// a failed compare-and-swap. A failed swap is retried at once three times
// before the thread steps aside: it lost to another worker's thread, and the
// value its loop carries (CAS returns the one it found) is fresh now and
// stale once the others here have run, which with thousands of threads
// queued made contended loops starve (semantics.atomics.128_parallel under
// ThreadSanitizer). A spin lock whose holder shares the worker costs three
// more failed swaps. Host code (no CUDA thread running) counts nothing.
CUSIM_ALWAYS_INLINE void count_progress_point(progress_kind kind) {
  thread_context* t = current_thread;
  if (t == nullptr) return;
  ++(kind == progress_kind::fence ? t->activity->fences : t->activity->atomics);
  if (t->progress_thread != t->linear_tid) {
    t->progress_thread = t->linear_tid;
    t->progress_points = 0;
  }
  const unsigned int points = ++t->progress_points;
  if ((points & 63u) == 0 || (kind == progress_kind::failed_swap && (points & 3u) == 0)) spin_point();
}

#ifdef CUSIM_SANITIZING_THREADS
// Race checking (cusim-cc --check=race): the count is cusim's, not the
// kernel's, so it is kept by the runtime, out of ThreadSanitizer's sight.
CUSIM_FACT(spins) void note_progress_point_in_runtime(progress_kind kind);
inline void note_progress_point(progress_kind kind = progress_kind::atomic) { note_progress_point_in_runtime(kind); }
#else
CUSIM_ALWAYS_INLINE void note_progress_point(progress_kind kind = progress_kind::atomic) { count_progress_point(kind); }
#endif

}  // namespace cusim::detail
