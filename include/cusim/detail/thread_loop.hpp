// The loop in which a fiber runs a block's threads one after another (the
// loop-fiber scheme, docs/design.md), compiled into each kernel's own code
// (kernel_call::run_threads): between two threads that never wait there is
// no call through the scheduler, only a few stores and the kernel's code.
// The worker sets the loop up and takes its first thread; a thread that
// waits parks the fiber inside the loop, and another fiber goes on with the
// threads not yet started, taking them from the same cursor.
//
// Until this fiber waits or leaves the loop, no other thread of its block
// runs: nothing can tell whether the loop has told the block what it did.
// So it tells it late, and a thread costs a store of its index, its id and
// the worker's record of it. The block learns
// - which threads have started (its cursor) when a thread of the loop
//   enters a wait, every warp's worth of threads, and when the loop ends;
// - which have ended then too: the loop's threads from the first not yet
//   recorded (the worker keeps it, with the fiber) up to the running one
//   (which is alive), or through the last one run (at the loop's end).
//   Recorded late, an exit does what it did recorded at once: it may
//   complete a barrier or collective that waited only for it, and an exit
//   while threads wait at a barrier is reported.
// Every warp's worth is also how late the loop sees that its grid was
// aborted.
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/config.hpp>

namespace cusim::detail {

struct thread_loop {
  // What the worker tells the loop once it has recorded exits.
  enum class after_exit { next, block_ended, stop };
  static constexpr unsigned int threads_per_record = 32;  // a warp's

  unsigned int* next_thread;      // the block's cursor: its first thread not started, as far as it knows
  unsigned int thread_count;      // the block's
  dim3 block_dim;
  thread_context* thread;         // the running fiber's: the thread it runs now
  unsigned int* running_thread;   // the worker's record of that thread's linear id (watchdog, fault
                                  // reports), read by other OS threads: stored atomically
  // Tells the block what the loop has done (above), `next` the thread about
  // to start or thread_count at the loop's end; block_ended when the exits
  // ended the block, stop when the grid has been aborted.
  after_exit (*record)(thread_loop& loop, unsigned int next);
  void* worker;                   // the worker's, for record

  // Runs the fiber's thread and the block's next ones, calling the kernel
  // with `run_kernel()`; true when the last one ended the block.
  template <class RunKernel>
  CUSIM_ALWAYS_INLINE bool run(RunKernel run_kernel) {
    position at = start();
    do {
      run_kernel();
    } while (take_next(at));
    return record(*this, thread_count) == after_exit::block_ended;
  }

  // The running thread's linear id and index, which the loop keeps in
  // registers: read back from the context, each thread's would wait for the
  // previous one's stores to be forwarded, a chain through every thread.
  // (A wait does not change them: the fiber resumes the same thread.)
  struct position {
    unsigned int linear;
    uint3 index;
  };
  position start() const { return {thread->linear_tid, thread->thread_idx}; }

  // After the running thread (at `at`) has returned from the kernel: makes
  // the block's next unstarted thread the running one; false when every
  // thread has started (or the grid was aborted).
  CUSIM_ALWAYS_INLINE bool take_next(position& at) {
    const unsigned int after = at.linear + 1;
    // The cursor is behind unless others took threads while this fiber's
    // thread waited (a wait brings it up to date first).
    const unsigned int cursor = *next_thread;
    const unsigned int t = cursor > after ? cursor : after;
    if (t >= thread_count) return false;
    if ((t % threads_per_record == 0 || t != after) && record(*this, t) != after_exit::next) return false;
    // Only what changed is stored, to the context and to threadIdx alike.
    thread_context& c = *thread;
    if (t == after) {
      const unsigned int x = at.index.x + 1;
      if (x != block_dim.x) {  // the usual case
        at.index.x = x;
        c.thread_idx.x = x;
        threadIdx.x = x;
      } else {
        at.index = {0, at.index.y + 1, at.index.z};
        if (at.index.y == block_dim.y) {
          at.index.y = 0;
          ++at.index.z;
        }
        c.thread_idx = at.index;
        threadIdx = at.index;
      }
    } else {  // others took the threads in between, while this fiber's thread waited
      at.index = {t % block_dim.x, t / block_dim.x % block_dim.y, t / (block_dim.x * block_dim.y)};
      c.thread_idx = at.index;
      threadIdx = at.index;
    }
    at.linear = t;
    c.linear_tid = t;
    c.last_error = 0;
    __atomic_store_n(running_thread, t, __ATOMIC_RELAXED);
    return true;
  }
};

}  // namespace cusim::detail
