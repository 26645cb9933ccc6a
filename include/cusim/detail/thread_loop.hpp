// The loop in which a fiber runs a block's threads one after another (the
// loop-fiber scheme, docs/design.md), compiled into each kernel's own code
// (kernel_call::run_threads): between two threads that never wait there is
// no call through the scheduler, only a few stores and the call of the
// kernel. The worker sets the loop up and takes its first thread; a thread
// that waits parks the fiber inside the loop, and another fiber goes on with
// the threads not yet started, taking them from the same cursor.
//
// Exits are recorded in batches. Until this fiber leaves the loop or enters
// the runtime to wait, no other thread of its block runs, so nothing can
// tell a thread that has ended from one still running: the loop only counts
// the threads that ended, and the worker records them (block, warps, barrier,
// cluster, cooperative grid) when a thread of the loop enters a wait, every
// warp's worth of threads (which also bounds how late an abort is seen), and
// when the loop ends. A recorded exit then does what it did when recorded
// one by one: it may complete a barrier or collective that waited only for
// it, and an exit while threads wait at a barrier is reported.
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/config.hpp>

namespace cusim::detail {

struct thread_loop {
  // What the worker tells the loop after a thread's exit.
  enum class after_exit { next, block_ended, stop };

  unsigned int* next_thread;      // the block's first thread not yet started
  unsigned int thread_count;      // the block's
  dim3 block_dim;
  thread_context* thread;         // the running fiber's: the thread it runs now
  unsigned int* running_thread;   // the worker's record of that thread's linear id (watchdog, fault
                                  // reports), read by other OS threads: stored atomically
  // Records the exits counted so far (see above); block_ended when they
  // ended the block, stop when the grid has been aborted.
  after_exit (*record_exits)(thread_loop& loop);
  void* worker;                   // the worker's, for record_exits
  static constexpr unsigned int threads_per_record = 32;  // a warp's
  unsigned int first_ended = 0;   // threads [first_ended, first_ended + ended) have ended,
  unsigned int ended = 0;         // their exits not yet recorded

  // The running thread has returned from the kernel.
  CUSIM_ALWAYS_INLINE void thread_ended() {
    if (ended++ == 0) first_ended = thread->linear_tid;
  }

  // Takes the block's next unstarted thread for the fiber, and makes it the
  // running one; false when every thread has started.
  CUSIM_ALWAYS_INLINE bool take_next() {
    const unsigned int t = *next_thread;
    if (t >= thread_count) return false;
    // Exits are recorded at each warp's start, and whenever the ended
    // threads would not stay one range (others took threads while this
    // fiber's thread waited). It cannot end the block: thread t has not run.
    if (ended != 0 && (t % threads_per_record == 0 || t != first_ended + ended) && record_exits(*this) != after_exit::next) {
      return false;
    }
    *next_thread = t + 1;
    thread_context& c = *thread;
    // The new index is made in registers and stored whole, to the context
    // and to threadIdx alike: stepping x in memory and then copying x and y
    // as one 8-byte load made the load wait for the store (no forwarding
    // across sizes), and so for every store before it, the kernel's
    // cache-missing ones included: in a streaming kernel, a memory latency
    // per thread.
    uint3 index = c.thread_idx;
    if (t == c.linear_tid + 1) {  // the usual case: the thread after the one that just ended
      if (++index.x == block_dim.x) {
        index.x = 0;
        if (++index.y == block_dim.y) {
          index.y = 0;
          ++index.z;
        }
      }
    } else {  // others took the threads in between, while this fiber's thread waited
      index = uint3{t % block_dim.x, t / block_dim.x % block_dim.y, t / (block_dim.x * block_dim.y)};
    }
    c.thread_idx = index;
    threadIdx = index;
    c.linear_tid = t;
    c.last_error = 0;
    __atomic_store_n(running_thread, t, __ATOMIC_RELAXED);
    return true;
  }
};

}  // namespace cusim::detail
