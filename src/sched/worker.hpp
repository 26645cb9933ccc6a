// A worker: one OS thread running resident blocks of a grid on fibers. Its
// ready queue holds the fibers that can run; a fiber that must wait parks,
// and the worker (or the parking fiber itself) switches to the next ready one.
// Fibers of a block never leave their worker, so thread_local state read by
// device code stays valid across switches.
//
// Its definitions, by job: worker.cpp (the run loop, admitting and finishing
// blocks, switching fibers, thread loops), worker_sync.cpp (barriers: block,
// part of a block, grid, cluster, and their checks), worker_warps.cpp (warp
// collectives), worker_children.cpp (grids launched from device code),
// worker_faults.cpp (hardware faults in CUDA threads).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fiber/inline_switch.hpp"
#include "platform/faults.hpp"
#include "sched/block.hpp"
#include "sched/children.hpp"
#include "sched/cluster.hpp"
#include "sched/fiber.hpp"
#include "sched/grid.hpp"
#include "sched/race_check.hpp"
#include "sched/schedule.hpp"

namespace cusim::detail {

// Makes the built-in variables (include/cusim/detail/builtins.hpp) the
// values of the CUDA thread `t`, which is about to run. Here alone, in the
// runtime's sources: the program's see blockIdx, blockDim and gridDim const.
inline void publish_builtins(const thread_context& t) {
  threadIdx = t.thread_idx;
  blockIdx = t.block_idx;
  blockDim = t.block_dim;
  gridDim = t.grid_dim;
}

// What a worker is doing, for the watchdog on another OS thread: counters
// the worker alone writes (so plain relaxed stores, no atomic read-modify-
// write), and which CUDA thread it runs.
// What exit_thread() throws (PTX `exit`): the thread's runner catches it as
// the thread's return (worker::run_one_thread, worker::run_thread_loop).
struct thread_exit {};

struct worker_activity {
  std::atomic<std::uint64_t> switches{0};      // fiber switches
  std::atomic<std::uint64_t> exits{0};         // CUDA threads finished
  std::atomic<std::uint64_t> block_linear{0};  // the running thread's block
  // and the thread (its context's linear_tid, which the kernel's loop
  // changes without telling the worker; null between grids). Stored with
  // release, so that the watchdog's read of a new fiber's context comes
  // after the context was made.
  std::atomic<const thread_context*> running_thread{nullptr};
  std::atomic<bool> busy{false};               // running a grid (an idle worker is not stalled)
};

// One writer (the worker): a relaxed load and store, no locked instruction.
inline void bump(std::atomic<std::uint64_t>& counter, std::uint64_t by = 1) {
  counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

struct worker_settings {
  std::size_t stack_bytes;        // per fiber
  unsigned int resident_blocks;   // blocks of the grid a worker keeps alive at once
  unsigned int child_resident_blocks;  // the same for each child grid (dynamic parallelism)
  std::size_t arena_capacity;     // shared-memory bytes a block may own
  int device = 0;                 // the emulated device the grid runs on (cusim/profile.hpp)
};

class worker {
 public:
  worker() = default;
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;

  // Runs blocks of `grid` on the calling OS thread until the grid has none
  // left to hand out and every block this worker took has finished.
  void run(grid_job& grid, const worker_settings& settings);

  // The worker of the calling OS thread while it runs a grid.
  // (Inline: every device-side call asks.)
  static worker* current() { return current_; }
  // Its place in its pool: seeds its schedule generator (sched/schedule.hpp).
  void set_index(unsigned int index) { index_ = index; }

  const worker_activity& activity() const { return activity_; }
  // The most stack any CUDA thread of this worker has used so far (between
  // grids only: the kernel report).
  std::size_t deepest_stack_use() const;

  // Called by device code on a fiber of this worker.
  barrier_outcome barrier(int predicate, const char* file = nullptr, unsigned int line = 0);
  void grid_barrier(const char* file, unsigned int line);
  void partial_barrier(unsigned int first, unsigned int count);
  // Clusters: the barrier (split into arrival and wait) and distributed shared memory.
  std::uint64_t cluster_arrive();
  void cluster_wait(std::uint64_t phase);
  void* cluster_map_shared(void* address, unsigned int rank, const char* file, unsigned int line);
  unsigned int cluster_query_rank(const void* address);
  // A warp collective. Inline into the device entry point: most arrivals
  // (31 of a full warp's 32 at each shuffle) join the warp's one pending
  // collective and wait, and that path stays short; opening, completing
  // and checking misuse are out of line (worker_warps.cpp).
  [[gnu::always_inline]] warp_result warp_collective(const warp_call& call) {
    fiber& self = *running_;
    record_loop_progress(self);
    if (self.grid_aborted()) abandon_thread();
    const unsigned int tid = self.thread.linear_tid;
    block_state& block = *self.thread.block;
    if (!race::enabled && block.warp_of(tid).join_pending(self, tid % lanes_per_warp, call)) {
      if (block.needs_starter()) start_fiber_for(block, /*run_next=*/false);
      wait_at_token(self);
      return self.warp_outcome;
    }
    return arrive_and_wait(self, block, call);
  }
  // The legacy (CDP1) device-side cudaDeviceSynchronize(): the running
  // thread waits until every grid its block has launched so far has finished.
  void wait_for_block_children();
  // Whether the running thread's block has launched grids that have not completed.
  bool block_has_children() const;
  // The running thread steps aside for the others of its block (progress.hpp).
  void spin_point(bool polling);
  // Whether the running thread, at a spin point, should let the worker's
  // loop admit one more block of the grid (and room for it was taken).
  bool room_for_spinners(block_state& block);
  // ThreadSanitizer follows at most 8128 threads in a process, and a
  // race-checked program's resident CUDA thread costs it about two (its
  // identity and its fiber's): there, a grid's resident threads, the usual
  // blocks' and those spinning brings in, stay within this many (the launch
  // caps its workers and the grid's room, grid_job::set_spin_room; the
  // worker checks only its own, looser budget). Measured with sample
  // 110 (clusters of 4 blocks of 256 threads): 3 workers' 3072 resident
  // threads run, 4096 exceed the limit.
  static bool thread_identities_limited();
  static constexpr std::uint64_t limited_resident_threads = 3072;
  [[noreturn]] void abandon_thread();  // the running CUDA thread stops for good (assert, trap)
  // Memory spaces, as __isShared and __isLocal see them: shared memory of a
  // block resident on this worker, the stack of one of its fibers.
  bool in_shared_memory(const void* p) const { return shared_memory_owner(p) != nullptr; }
  // The resident block whose shared memory holds `p`, or null.
  const block_state* shared_memory_owner(const void* p) const;
  bool in_local_memory(const void* p) const;
  // Where its fibers' stacks come from past the process's budget of guarded ones.
  stack_reservations& stack_reservations_for_fibers() { return stack_reservations_; }
  // Reports a misuse by the running thread (naming its kernel, block and
  // thread) and stops the grid with `error`. The thread goes on until its
  // next wait, so that the runtime call that found the misuse can return
  // (and free what it holds) first: the caller returns an error.
  void fail_grid(const std::string& problem, cudaError_t error = cudaErrorLaunchFailure);

  // Called by the fiber loop.
  void fiber_loop(fiber& self);

  // Hardware faults in kernel code (platform/faults.hpp, worker_faults.cpp).
  // Called in the signal handler: claims a fault of the running CUDA thread
  // (its stack pointer in the thread's fiber stack, or just below it), to be
  // reported by after_fault on that fiber's stack.
  static platform::fault_landing claim_fault(const platform::fault& f, void*& stack_top);

 private:
  block_state& admit_block(grid_job& grid, std::uint64_t linear);
  void admit_cluster(grid_job& grid, std::uint64_t cluster);
  // Resident blocks of `grid` on this worker.
  unsigned int& resident_count(grid_job& grid) { return grid.sequence ? grid.sequence->resident : primary_resident_; }
  void leave_resident(block_state& block);

  // Dynamic parallelism (children.hpp).
  void admit_child_blocks();
  // Moves the block's recorded launches to its sequence, starting one if needed.
  launch_sequence& start_children(block_state& block);
  // Starts the sequence's next grid, or completes the sequence when none is left.
  void advance(launch_sequence& sequence);
  void complete(launch_sequence& sequence);
  // A child grid's last block is complete: its tail launches run next.
  void child_grid_complete(launch_sequence& sequence);
  cluster_state& cluster_of(block_state& block);  // a block of a cluster-less grid gets one of its own
  // Reports a misuse by the running thread (naming its block and thread),
  // stops the grid and abandons the thread.
  template <class... Args>
  [[noreturn]] void fail_in_kernel(fmt::format_string<Args...> format, Args&&... args);
  void start_fiber_for(block_state& block, bool run_next);
  void finish_block(block_state& block);
  void finish_block_now(block_state& block);
  void withdraw_starter(block_state& block);
  void reclaim_aborted_blocks();
  void report_hang();
  // Synchronisation checks at a barrier (docs/debugging.md): reached from
  // two call sites, or with threads of the block already gone.
  void check_barrier_arrival(block_state& block, const char* file, unsigned int line);
  void check_exit_during_barrier(block_state& block, unsigned int linear_tid);
  // Reports a check that fired; under CUSIM_CHECKS=fatal the grid stops.
  void check_failed(grid_job& grid, const std::string& problem);
  // Threads of a cooperative grid exited: they no longer hold grid.sync().
  void grid_threads_exited(unsigned int count);
  void release_grid_barrier_if_complete();
  // A misuse of a warp collective: reported, and the grid stops (the caller
  // then abandons the thread).
  void fail_warp_call(const warp_call& call, const std::string& problem);
  bool warp_call_is_valid(const warp_call& call);
  // A call warp_call_is_valid() would pass that is not a reduction (whose
  // check reads the device profile) nor __activemask (which names no lane).
  static bool is_usual_warp_call(const warp_call& call, unsigned int lane) {
    return names_lane(call, lane) && !is_reduction(call.op) && (!is_shuffle(call.op) || is_shuffle_width(call.width));
  }
  // warp_collective() but for its shortest path: an arrival that opens or
  // completes a collective, or is not the usual call.
  [[gnu::noinline]] warp_result arrive_and_wait(fiber& self, block_state& block, const warp_call& call);
  warp_state::arrival arrive_at_warp_collective(const warp_call& call, fiber_queue& woken);
  // Queues the lanes of a collective that the running lane completed.
  void wake_warp(fiber_queue& lanes);
  unsigned int warp_turns_ = 0;  // collectives completed in a row whose lanes ran first
  // Shuffles of `block` that read lanes that took no part: reported once per call site.
  bool report_warp_news(block_state& block, unsigned int linear_tid);
  // Runs the block's unstarted threads on `self`, one after another, until
  // none is left or one of them must wait (another fiber then goes on with
  // the rest). True when the last one ended the block.
  bool run_threads(fiber& self, block_state& block);
  // The same through the kernel's own loop (include/cusim/detail/thread_loop.hpp).
  bool run_thread_loop(fiber& self, block_state& block, const kernel_invocation& kernel);
  // Tells the block which threads the loop has started and which have
  // ended (thread_loop.hpp says when); `next` starts now, or thread_count.
  static thread_loop::after_exit record_loop(thread_loop& loop, unsigned int next);
  // The same for the running fiber's loop, if it has any, whose running
  // thread enters a wait: called on entry to every wait, since the waits'
  // arrivals count the block's exits and a waiting thread's fiber hands
  // the threads not started to another.
  // It also stores the thread's index in its context, where the worker
  // reads it once the fiber has parked (the loop keeps only threadIdx).
  // Inline, the usual case: the thread waited before, so all is recorded
  // (its first exit to record is its own, the cursor is past it, and its
  // index is in its context).
  void record_loop_progress(fiber& self) {
    if (!self.in_loop) return;
    if (self.loop_never_waits) fail_wait_against_facts();
    const unsigned int running = self.thread.linear_tid;
    if (self.loop_first_unrecorded != running || self.loop_indexed_thread != running) {
      record_loop_progress_slowly(self);
    }
  }
  void record_loop_progress_slowly(fiber& self);
  // A thread of a kernel the front end found never waits has come to a wait.
  [[noreturn]] void fail_wait_against_facts();
  // Both: records the exits of the fiber's loop from its first unrecorded
  // thread up to `end` (not included), and makes `first_after` the first
  // unrecorded; true when they ended the block.
  bool record_loop_exits(fiber& self, block_state& block, unsigned int end, unsigned int first_after);
  // Accounts for the exits of threads [first, first + count) of `block`;
  // true when they ended it.
  bool threads_ended(block_state& block, unsigned int first, unsigned int count);
  // Runs one CUDA thread; false if a C++ exception escaped it (reported).
  bool run_one_thread(void (*run_thread)(const void*), const void* call);
  // After a thread of the fiber's loop ended with PTX `exit`: records its
  // exit and makes the block's next unstarted thread the fiber's; whether
  // the block ended, or none is left to run, when the loop is over.
  std::optional<bool> go_on_after_exit(fiber& self, thread_loop& loop);
  // In a handler: reports the exception being handled as escaping the running thread.
  void report_escaped_exception();
  // Installs the fault handlers and this OS thread's signal stack, unless
  // CUSIM_ON_FAULT=abort.
  static void prepare_for_faults();
  [[noreturn]] static void after_fault();
  std::string describe_fault() const;
  platform::fault fault_{};  // the fault after_fault reports
  bool reporting_fault_ = false;

  // Switches from the running fiber `self` to the next ready fiber, or to the
  // worker's own context when none is ready. Returns when `self` is resumed.
  void switch_away(fiber& self) { hand_over(self, pick_next()); }
  // The same, to `next` (nullptr: the worker's own context). Inline: every
  // wait's path.
  void hand_over(fiber& self, fiber* next) {
    if (self.unguarded_stack) [[unlikely]] check_unguarded_stack(self, /*finished=*/false);
    if (next == &self) return;
    if (next != nullptr) {
      bump(activity_.switches);
      if (next->thread.block != self.thread.block) {
        note_running(next->thread);
        publish_builtins(next->thread);
      } else {
        // The same block: only the thread differs.
        activity_.running_thread.store(&next->thread, std::memory_order_release);
        threadIdx = next->thread.thread_idx;
      }
      running_ = next;
      current_thread = &next->thread;
      switch_inline(self.context, next->context);
    } else {
      running_ = nullptr;
      current_thread = nullptr;
      self.context.switch_to(home_);
    }
  }
  // A fiber whose stack has no guard page (fiber/stack.hpp) is checked for an
  // overflow when it switches away (its frames reach below its stack) and
  // when it has no thread left (they did, and returned). Either stops the
  // program: the frames may have reached another thread's stack.
  // (Out of line and cold: hand_over, every wait's path, only tests a flag.)
  [[gnu::noinline, gnu::cold]] void check_unguarded_stack(const fiber& self, bool finished) const;
  [[noreturn]] void stop_for_unguarded_overflow(const fiber& self, const std::string& kernel, const char* found) const;
  // Idle fibers wait in two queues, so that those with a guard page are
  // used first: after one huge grid, the next grids' threads overflow
  // into a guard page, and fail only their grid.
  // Last in, first out: the stack used last is the one in the cache.
  void park_idle(fiber& f) { (f.unguarded_stack ? idle_unguarded_ : idle_).push_front(&f); }
  // On a fiber whose block has finished: admits the grid's next cluster, if
  // that is all the worker's loop would do now (worker.cpp).
  bool admit_next_cluster_here();
  // `self`, already queued where it waits, gives way until it is woken.
  void wait_until_woken(fiber& self, block_state& block);
  // The same for a wait whose participants order their work (race checking:
  // releases and acquires self.race_token around the wait).
  void wait_at_token(fiber& self) {
    race::release(self.race_token);
    switch_away(self);
    race::acquire(self.race_token);
  }
  void resume(fiber& f);  // from the worker's own context
  // Takes the ready fiber the schedule policy runs next, or nullptr. In
  // order (the default) it is the queue's first: inline, for the hot path.
  fiber* pick_next() { return scheduled_ ? pick_scheduled() : ready_.pop_front(); }
  fiber* pick_scheduled();
  // A thread starts on `f`: under pct, it draws its priority.
  void note_thread_start(fiber& f) {
    if (scheduled_) draw_priority(f);
  }
  void draw_priority(fiber& f);

  void note_running(const thread_context& t);

  static CUSIM_THREAD_LOCAL worker* current_;
  worker_activity activity_;
  execution_context home_;  // the OS thread's own context
  fiber* running_ = nullptr;
  fiber_queue ready_;
  fiber_queue idle_;
  fiber_queue idle_unguarded_;
  // Declared before the fibers, whose stacks may be carved from it.
  stack_reservations stack_reservations_;
  std::vector<std::unique_ptr<fiber>> fibers_;
  std::vector<std::unique_ptr<block_state>> block_pool_;
  std::vector<block_state*> resident_;
  // The pool's blocks that are not resident, ready for the next admitted
  // block: a chain of nested child grids keeps thousands resident, and
  // searching the pool for a free one made admitting them quadratic.
  std::vector<block_state*> spare_blocks_;
  std::vector<std::unique_ptr<cluster_state>> clusters_;  // running
  std::vector<std::unique_ptr<launch_sequence>> sequences_;  // running child grids, oldest first
  grid_job* grid_ = nullptr;  // the grid run() was given (host-launched)
  unsigned int primary_resident_ = 0;
  // Blocks of grid_ this worker keeps beyond settings_.resident_blocks, taken
  // for polling threads (room_for_spinners); the polls since it last looked
  // for progress, how many until it looks again, and what it saw.
  unsigned int spin_resident_ = 0;
  static constexpr std::uint64_t fewest_polls_before_admitting = 1024;
  std::uint64_t polls_since_progress_ = 0;
  std::uint64_t polls_needed_ = fewest_polls_before_admitting;
  std::uint64_t progress_at_last_look_ = 0;  // exits, barriers and collectives then
  unsigned int resident_limit() const { return settings_.resident_blocks + spin_resident_; }
  std::vector<block_state*> blocks_to_finish_;
  bool finishing_blocks_ = false;
  worker_settings settings_{};
  unsigned int index_ = 0;
  // Schedule policies other than in-order (sched/schedule.hpp).
  bool scheduled_ = false;
  schedule_random random_;
  std::uint64_t picks_ = 0;
  std::uint64_t change_points_[8] = {};  // pct: picks at which the running thread drops to the lowest priority
  // grid.sync() of the cooperative grid this worker runs (alone).
  struct {
    std::uint64_t arrived = 0;
    std::uint64_t exited = 0;
    fiber_queue waiters;
    const void* race_token = nullptr;  // race checking
  } grid_barrier_;
};

}  // namespace cusim::detail
