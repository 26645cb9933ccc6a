// One resident thread block: which of its threads have started and exited,
// its barrier, and its shared-memory arena. A block lives on one worker from
// admission to completion, so nothing here needs atomics.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sched/fiber.hpp"
#include "sched/grid.hpp"
#include "sched/warp.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

// The access-pattern check (check/access_check.cpp) is told when a block
// has finished, to count what its warps left incomplete. Null unless that
// check is linked in.
extern void (*block_finished_observer)(const class block_state& block);

class block_state {
 public:
  // `arena_capacity`: the most shared memory any block may be given.
  explicit block_state(std::size_t arena_capacity);

  // Prepares this (pooled) object to run block `linear` of `grid`.
  void start(grid_job& grid, std::uint64_t linear);

  grid_job& grid() const { return *grid_; }
  // Different for every block run (a pooled block_state runs many): what
  // device-runtime objects (streams, events) record as their owner.
  std::uint64_t serial() const { return serial_; }
  uint3 block_idx() const { return block_idx_; }
  std::uint64_t linear_index() const { return linear_; }
  trace::block_identity trace_identity() const { return {grid_->serial(), linear_}; }
  unsigned int thread_count() const { return thread_count_; }
  unsigned int exited_threads() const { return exited_; }
  unsigned int barrier_arrivals() const { return barrier_arrived_; }  // waiting at __syncthreads now

  // What the block's threads did (the kernel report); complete once the block has finished.
  const block_activity& activity();

  // Gives the next unstarted thread to `thread`; false when all have started.
  bool take_thread(thread_context& thread) {
    if (next_thread_ >= thread_count_) return false;
    // A loop fiber takes consecutive threads (in order): only the index steps.
    if (thread.block == this && next_thread_ != 0 && thread.linear_tid + 1 == next_thread_ && thread_order_.empty()) {
      step_thread_index(thread);
      return true;
    }
    return take_thread_afresh(thread);
  }
  bool has_unstarted_threads() const { return next_thread_ < thread_count_; }
  // The next unstarted thread, for a kernel's thread loop to take them in
  // index order (no schedule policy: grid_job::how_threads_start).
  unsigned int* thread_cursor() { return &next_thread_; }
  // Threads not started and no fresh fiber queued to start them: a fiber
  // that waits must hand them to a new one (worker::start_fiber_for).
  bool needs_starter() const { return has_unstarted_threads() && queued_starter == nullptr; }
  // The fresh fiber queued for its next thread, until it runs. Other fibers
  // may take the block's last threads first, and the block may end before
  // it runs: then it is withdrawn (worker::withdraw_starter).
  fiber* queued_starter = nullptr;
  // Race checking: the token of the __syncthreads now gathering
  // (sched/race_check.hpp), and whether the check follows the block's
  // threads (always without race checking).
  const void* barrier_race_token = nullptr;
  bool race_followed = true;
  // The call site and thread of the first arrival at the barrier now
  // gathering (synchronisation checks); null file: none yet, or unknown.
  const char* barrier_file = nullptr;
  unsigned int barrier_line = 0;
  uint3 barrier_first_thread{};
  // Records the exits of threads [first, first + count); collectives of
  // their warps that waited only for them complete into `woken`. Returns
  // true when they were the block's last threads.
  bool threads_exited(unsigned int first, unsigned int count, fiber_queue& woken);
  // After exits, the threads still live may all be waiting at the barrier:
  // exited threads do not hold it (sm_70+). Releases it if so.
  bool release_if_exits_completed(fiber_queue& woken) {
    if (!barrier_complete()) return false;
    release_barrier(woken);
    return true;
  }

  // A thread arrives at the barrier with `predicate`. If it completes the
  // barrier, the waiters are moved to `woken` (the outcome is then
  // released_outcome()); otherwise the caller must park `self`, which is
  // queued as a waiter.
  // (Inline: every thread's every __syncthreads.)
  bool barrier_arrive(fiber& self, int predicate, fiber_queue& woken) {
    if (trace::enabled && barrier_arrived_ == 0) barrier_started_ = trace::now();
    ++barrier_arrived_;
    if (predicate != 0) ++barrier_true_;
    if (barrier_complete()) {
      release_barrier(woken);
      return true;
    }
    barrier_waiters_.push_back(&self);
    const unsigned int tid = self.thread.linear_tid;
    warp_of(tid).lane_waits_at_barrier(tid % lanes_per_warp, woken);
    return false;
  }
  // The outcome of the barrier released last. A thread that waited reads it
  // when it resumes: the next barrier cannot complete before that, since it
  // needs this thread's arrival (so releasing touches no waiter).
  barrier_outcome released_outcome() const { return released_outcome_; }

  // The warp of thread `linear_tid`.
  warp_state& warp_of(unsigned int linear_tid) { return warps_[linear_tid / lanes_per_warp]; }
  const warp_state& warp_of(unsigned int linear_tid) const { return warps_[linear_tid / lanes_per_warp]; }
  // Whether thread `linear_tid` (< thread_count()) has exited: its warp keeps the bit.
  bool has_exited(unsigned int linear_tid) const {
    return (warp_of(linear_tid).live() >> (linear_tid % lanes_per_warp) & 1u) == 0;
  }
  // What the block's threads wait for, for a report of a block that cannot go on.
  std::string describe_waits() const;

  // Clusters: the cluster this block belongs to (null when none), its rank
  // there, and whether it has finished while its cluster still runs.
  class cluster_state* cluster = nullptr;
  unsigned int cluster_rank = 0;
  bool finished = false;
  // Whether `p` points into this block's shared memory, and the same
  // place in `peer`'s (the same variable, at the same offset in it), or
  // nullptr if `p` is in none of this block's variables.
  bool owns_shared(const void* p) const;
  void* same_place_in(block_state& peer, const void* p);
  // After the block finishes (while its cluster runs, or for good): reads of
  // its shared memory are errors, found where addresses are checked
  // (support/address_check.hpp).
  void retire_shared_memory();
  // Where `p` (owned by this block) lies, for memory-error reports: "4 bytes
  // after __shared__ tile (file:line, 1024 bytes), in the shared memory of
  // block (0,0,0)".
  std::string describe_shared_address(const void* p) const;

  // Barriers of part of the block (multi-warp tiles of cooperative groups):
  // threads [first, first + count). Completes when every one of them that
  // has not exited has arrived; returns true then, the waiters in `woken`.
  bool partial_barrier_arrive(fiber& self, unsigned int first, unsigned int count, fiber_queue& woken);
  // Scratch space of 8 bytes a thread, for collectives of such tiles.
  std::uint64_t* scratch();

  // The block's storage for a static __shared__ site; nullptr when it does
  // not fit in what the launch allows (static + dynamic <= grid.shared_limit()).
  void* shared_slot(shared_site& site);
  std::size_t static_shared_bytes() const { return static_bytes_; }
  void* dynamic_shared() { return arena_.get(); }

  // Dynamic parallelism: launches the block's threads made that have not
  // started, the sequence that runs them once started (sched/children.hpp),
  // and whether all its threads have exited while those still run: the
  // block is complete, and leaves its worker, only when they have finished.
  std::vector<child_launch> launched;
  struct launch_sequence* children = nullptr;
  bool awaiting_children = false;

  // Fibers now working for this block (running, ready or waiting), so that an
  // aborted grid can reclaim them. Each knows its place (fiber::block_slot):
  // leaving is a swap with the last, not a search.
  std::vector<fiber*> fibers;
  void add_fiber(fiber& f) {
    f.block_slot = fibers.size();
    fibers.push_back(&f);
  }
  void remove_fiber(fiber& f) {
    fiber* last = fibers.back();
    fibers[f.block_slot] = last;
    last->block_slot = f.block_slot;
    fibers.pop_back();
  }

  // The timeline trace (trace/trace.hpp): when the block became resident.
  std::int64_t trace_started = 0;

 private:
  bool barrier_complete() const { return barrier_arrived_ > 0 && barrier_arrived_ == thread_count_ - exited_; }
  void release_barrier(fiber_queue& woken);

  grid_job* grid_ = nullptr;
  std::uint64_t serial_ = 0;
  uint3 block_idx_{};
  std::uint64_t linear_ = 0;
  unsigned int thread_count_ = 0;
  unsigned int next_thread_ = 0;
  // The order threads start in under a schedule policy other than in-order
  // (sched/schedule.hpp); empty: by index.
  std::vector<unsigned int> thread_order_;
  void choose_thread_order();
  bool take_thread_afresh(thread_context& thread);
  void step_thread_index(thread_context& thread) {
    const dim3 dim = grid_->shape().block;
    if (++thread.thread_idx.x == dim.x) step_to_next_row(thread.thread_idx, dim);
    set_linear_tid(thread, next_thread_++);
    thread.last_error = 0;
  }
  unsigned int exited_ = 0;
  block_activity activity_;

  std::vector<warp_state> warps_;
  struct partial_barrier {
    unsigned int first, count, arrived;
    fiber_queue waiters;
    const void* race_token;  // race checking
  };
  std::vector<partial_barrier> partial_barriers_;
  std::vector<std::uint64_t> scratch_;
  void complete_partial_barriers(fiber_queue& woken);

  unsigned int barrier_arrived_ = 0;
  std::int64_t barrier_started_ = 0;  // the timeline trace: the first arrival
  unsigned int barrier_true_ = 0;
  barrier_outcome released_outcome_{};
  fiber_queue barrier_waiters_;

  struct slot {
    shared_site* site;
    unsigned int site_id;
    std::size_t offset;
  };
  struct arena_deleter {
    void operator()(std::byte* arena) const;
  };
  // A fresh arena_ of arena_capacity_ bytes, all poisoned.
  void renew_arena();
  std::unique_ptr<std::byte[], arena_deleter> arena_;
  std::size_t arena_capacity_;
  std::size_t arena_used_ = 0;  // dynamic part first, then static slots
  std::size_t static_bytes_ = 0;
  std::vector<slot> slots_;
};

}  // namespace cusim::detail
