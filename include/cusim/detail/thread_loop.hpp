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
// So it tells it late, and a thread costs two stores: threadIdx and its
// linear id (which the watchdog reads). The context's copy of the index is
// stored when the thread waits, and its last error is the previous
// thread's until one is set (thread_context says how). The block learns
// - which threads have started (its cursor) when a thread of the loop
//   enters a wait, every 256 threads, and when the loop ends;
// - which have ended then too: the loop's threads from the first not yet
//   recorded (the worker keeps it, with the fiber) up to the running one
//   (which is alive), or through the last one run (at the loop's end).
//   Recorded late, an exit does what it did recorded at once: it may
//   complete a barrier or collective that waited only for it, and an exit
//   while threads wait at a barrier is reported.
// Every 256 threads (row by row: at the end of the row that reaches 256)
// is also how late the loop sees that its grid was aborted. (Every warp,
// the records cost W1 a tenth of its time.)
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/config.hpp>

namespace cusim::detail {

struct thread_loop {
  // What the worker tells the loop once it has recorded exits.
  enum class after_exit { next, block_ended, stop };
  static constexpr unsigned int threads_per_record = 256;

  unsigned int* next_thread;      // the block's cursor: its first thread not started, as far as it knows
  unsigned int thread_count;      // the block's
  dim3 block_dim;
  thread_context* thread;         // the running fiber's: the thread it runs now
  // Tells the block what the loop has done (above), `next` the thread about
  // to start or thread_count at the loop's end; block_ended when the exits
  // ended the block, stop when the grid has been aborted.
  after_exit (*record)(thread_loop& loop, unsigned int next);
  void* worker;                   // the worker's, for record
  // The front end found that no thread of the kernel waits or steps aside
  // (include/cusim/detail/front_end_facts.hpp): then no other fiber of the
  // block runs while this loop does, and the loop need not look for threads
  // others took (the worker fails the grid if one of them waits after all).
  bool threads_never_wait;

  // Runs the fiber's thread and the block's next ones, calling the kernel
  // with `run_kernel()`; true when the last one ended the block.
  template <class RunKernel>
  CUSIM_ALWAYS_INLINE bool run(RunKernel run_kernel) {
    if (threads_never_wait) {
      run_rows(run_kernel);
    } else {
      position at = start();
      do {
        run_kernel();
      } while (take_next(at));
    }
    return record(*this, thread_count) == after_exit::block_ended;
  }

  // Without waits each thread follows the one before, so the loop runs the
  // block row by row: along x, a counted loop storing threadIdx.x and the
  // thread's id; at the end of a row, y and z, and the record when due.
  template <class RunKernel>
  CUSIM_ALWAYS_INLINE void run_rows(RunKernel run_kernel) {
    // In locals: the kernel's stores might reach the loop's members.
    thread_context& running = *thread;
    const unsigned int row_length = block_dim.x;
    unsigned int linear = running.linear_tid;
    uint3 index = running.thread_idx;
    unsigned int unrecorded = 0;
    for (;;) {
      for (;;) {
        run_kernel();
        ++linear;
        ++unrecorded;
        if (++index.x == row_length) break;
        // The id first: the kernel's load of threadIdx.x then follows the
        // store, and the compiler takes the value from it (an atomic store
        // in between would make it load it back).
        set_linear_tid(running, linear);
        threadIdx.x = index.x;
      }
      if (linear >= thread_count) return;
      if (unrecorded >= threads_per_record) {
        if (record(*this, linear) != after_exit::next) return;
        unrecorded = 0;
      }
      step_to_next_row(index, block_dim);
      threadIdx = index;
      set_linear_tid(running, linear);
    }
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
    // Only what changed is stored.
    if (t == after) {
      const unsigned int x = at.index.x + 1;
      if (x != block_dim.x) {  // the usual case
        at.index.x = x;
        threadIdx.x = x;
      } else {
        step_to_next_row(at.index, block_dim);
        threadIdx = at.index;
      }
    } else {  // others took the threads in between, while this fiber's thread waited
      at.index = thread_index_at(t, block_dim);
      threadIdx = at.index;
    }
    at.linear = t;
    set_linear_tid(*thread, t);
    return true;
  }
};

}  // namespace cusim::detail
