#include "sched/worker.hpp"

#include <algorithm>
#include <climits>
#include <exception>
#include <string>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>

#include "runtime/kernels.hpp"
#include "sched/race_check.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

CUSIM_THREAD_LOCAL thread_context* current_thread = nullptr;

}  // namespace cusim::detail

CUSIM_THREAD_LOCAL uint3 threadIdx{};
CUSIM_THREAD_LOCAL uint3 blockIdx{};
CUSIM_THREAD_LOCAL dim3 blockDim;
CUSIM_THREAD_LOCAL dim3 gridDim;

namespace cusim::detail {

CUSIM_THREAD_LOCAL worker* worker::current_ = nullptr;

void worker::run(grid_job& grid, const worker_settings& settings) {
  if (settings.stack_bytes != settings_.stack_bytes) {
    idle_ = fiber_queue{};
    idle_unguarded_ = fiber_queue{};
    fibers_.clear();
  }
  if (settings.arena_capacity != settings_.arena_capacity) {
    block_pool_.clear();
    spare_blocks_.clear();
  }
  settings_ = settings;
  grid_ = &grid;
  grid_barrier_.arrived = 0;
  grid_barrier_.exited = 0;
  grid_barrier_.waiters = fiber_queue{};
  grid_barrier_.race_token = race::fresh_token();
  primary_resident_ = 0;
  spin_resident_ = 0;
  polls_since_progress_ = 0;
  polls_needed_ = fewest_polls_before_admitting;
  current_ = this;
  scheduled_ = !schedule_is_default();
  if (scheduled_) {
    const schedule_policy& policy = active_schedule();
    random_ = schedule_random(policy.seed ^ (grid.serial() * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t{index_} << 48));
    picks_ = 0;
    // pct: depth-1 change points among the first picks, about 8 a thread.
    const std::uint64_t horizon = 1 + 8 * grid.block_count() * grid.threads_per_block();
    for (unsigned int i = 0; i < 8; ++i) change_points_[i] = i + 1 < policy.depth ? 1 + random_.below(horizon) : 0;
  }
  prepare_for_faults();
  activity_.busy.store(true, std::memory_order_relaxed);
  race::runtime_only_section runtime_only;
  race::release(grid.race_start_token());  // what the host did before the launch happens before the kernel
  for (;;) {
    if (grid.aborted() && !resident_.empty()) {
      reclaim_aborted_blocks();
      continue;
    }
    // Child grids first: blocks of their parents wait for them.
    admit_child_blocks();
    std::uint64_t cluster = 0;
    while (primary_resident_ + grid.cluster_blocks() <= resident_limit() && grid.take_cluster(cluster, index_)) {
      admit_cluster(grid, cluster);
    }
    if (fiber* f = pick_next()) {
      resume(*f);
      continue;
    }
    if (resident_.empty()) break;
    report_hang();
    grid.abort(cudaErrorLaunchFailure);
  }
  race::acquire(grid.race_done_token());  // and the kernel before what follows its completion
  activity_.busy.store(false, std::memory_order_relaxed);
  activity_.running_thread.store(nullptr, std::memory_order_relaxed);  // its fiber may go with the next grid's settings
  grid_ = nullptr;
  current_ = nullptr;
  current_thread = nullptr;
}

std::size_t worker::deepest_stack_use() const {
  std::size_t deepest = 0;
  for (const auto& f : fibers_) deepest = std::max(deepest, f->stack().used_bytes());
  return deepest;
}

void worker::admit_cluster(grid_job& grid, std::uint64_t cluster) {
  const unsigned int size = grid.cluster_blocks();
  if (size == 1) {
    admit_block(grid, grid.cluster_block_linear(cluster, 0));
    return;
  }
  std::vector<block_state*> blocks;
  for (unsigned int rank = 0; rank < size; ++rank) {
    block_state& block = admit_block(grid, grid.cluster_block_linear(cluster, rank));
    blocks.push_back(&block);
  }
  auto& state = *clusters_.emplace_back(std::make_unique<cluster_state>());
  state.start(blocks, std::uint64_t{size} * grid.threads_per_block());
  for (unsigned int rank = 0; rank < size; ++rank) {
    blocks[rank]->cluster = &state;
    blocks[rank]->cluster_rank = rank;
  }
}

block_state& worker::admit_block(grid_job& grid, std::uint64_t linear) {
  block_state* block = nullptr;
  if (!spare_blocks_.empty()) {
    block = spare_blocks_.back();
    spare_blocks_.pop_back();
  } else {
    block_pool_.push_back(std::make_unique<block_state>(settings_.arena_capacity));
    block = block_pool_.back().get();
  }
  block->start(grid, linear);
  if (trace::enabled) block->trace_started = trace::now();
  resident_.push_back(block);
  ++resident_count(grid);
  start_fiber_for(*block, /*run_next=*/false);
  return *block;
}

void worker::start_fiber_for(block_state& block, bool run_next) {
  fiber* f = idle_.pop_front();
  if (f == nullptr) f = idle_unguarded_.pop_front();
  if (f == nullptr) {
    fibers_.push_back(std::make_unique<fiber>(*this, settings_.stack_bytes));
    f = fibers_.back().get();
  }
  f->thread.block = &block;
  f->abort_flag = &block.grid().abort_flag();
  set_linear_tid(f->thread, UINT_MAX);  // no previous thread to step from
  block.add_fiber(*f);
  block.queued_starter = f;
  if (run_next) ready_.push_front(f); else ready_.push_back(f);
}

// Completing a block may complete a child grid, which may complete the
// block that launched it, and so on up a tree of any depth: the blocks are
// queued and finished in a loop rather than by recursion.
void worker::finish_block(block_state& block) {
  blocks_to_finish_.push_back(&block);
  if (finishing_blocks_) return;
  finishing_blocks_ = true;
  while (!blocks_to_finish_.empty()) {
    block_state* next = blocks_to_finish_.back();
    blocks_to_finish_.pop_back();
    finish_block_now(*next);
  }
  finishing_blocks_ = false;
}

// A block whose threads have all exited. It stays resident while grids it
// launched still run, and a block of a cluster stays resident, its shared
// memory retired, until the cluster's last block finishes: until then no
// other block may take its place.
void worker::finish_block_now(block_state& block) {
  withdraw_starter(block);
  if (!block.launched.empty() || block.children != nullptr) {
    block.awaiting_children = true;
    block.fibers.clear();  // its last thread's fiber is leaving
    start_children(block);
    return;
  }
  block.grid().kernel().note_static_shared(block.static_shared_bytes());
  cluster_state* cluster = block.cluster;
  if (cluster == nullptr || cluster->size() == 1) {
    if (cluster != nullptr) block.cluster = nullptr;
    std::erase_if(clusters_, [&](const auto& c) { return c.get() == cluster; });
    leave_resident(block);
    return;
  }
  block.finished = true;
  block.fibers.clear();  // its last thread's fiber is leaving; the others have left
  block.retire_shared_memory();
  if (!cluster->block_finished()) return;
  const std::vector<block_state*> members = cluster->blocks();
  std::erase_if(clusters_, [&](const auto& c) { return c.get() == cluster; });
  for (block_state* member : members) {
    member->cluster = nullptr;
    leave_resident(*member);
  }
}

// A block's queued fresh fiber that has not run (the other fibers took the
// threads it was queued for) leaves the ready queue for the idle list: it
// must not run for a block that has ended. Rare, so the walk is cheap.
void worker::withdraw_starter(block_state& block) {
  fiber* starter = block.queued_starter;
  if (starter == nullptr) return;
  block.queued_starter = nullptr;
  ready_.remove(starter);
  block.remove_fiber(*starter);
  park_idle(*starter);
}

// Last in finish_block: completing a child grid may complete its parent's
// block, and so on up the tree.
void worker::leave_resident(block_state& block) {
  block.retire_shared_memory();
  resident_.erase(std::find(resident_.begin(), resident_.end(), &block));
  spare_blocks_.push_back(&block);
  grid_job& grid = block.grid();
  grid.add_activity(block.activity());
  if (trace::enabled) {
    if (!grid.trace_noted.exchange(true, std::memory_order_relaxed)) trace::note_grid(grid.trace_identity());
    trace::block(block.trace_identity(), block.trace_started, trace::now());
  }
  if (block_finished_observer != nullptr) block_finished_observer(block);
  --resident_count(grid);
  if (launch_sequence* sequence = grid.sequence) {
    if (++sequence->finished == grid.block_count()) child_grid_complete(*sequence);
  }
}

void worker::reclaim_aborted_blocks() {
  ready_ = fiber_queue{};
  activity_.running_thread.store(nullptr, std::memory_order_relaxed);  // the watchdog reads no context reset below
  for (block_state* block : resident_) {
    for (fiber* f : block->fibers) {
      f->reset();
      if (f->unguarded_stack) f->forget_stack_overflow();
      park_idle(*f);
    }
    block->fibers.clear();
    block->cluster = nullptr;
    block->launched.clear();  // an aborted grid's children never start
    block->children = nullptr;
    spare_blocks_.push_back(block);
  }
  resident_.clear();
  clusters_.clear();
  sequences_.clear();
  blocks_to_finish_.clear();
  finishing_blocks_ = false;
  primary_resident_ = 0;
}

void worker::fail_grid(const std::string& problem, cudaError_t error) {
  const thread_context& t = running_->thread;
  const uint3 index = thread_index_of(t);
  report("kernel {}: block ({},{},{}), thread ({},{},{}): {} The grid stops ({}).", t.block->grid().kernel_name(),
         t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x, index.y, index.z, problem,
         cudaGetErrorName(error));
  note_schedule_for_replay();
  t.block->grid().abort(error);
}

const block_state* worker::shared_memory_owner(const void* p) const {
  auto it = std::find_if(resident_.begin(), resident_.end(), [&](const block_state* b) { return b->owns_shared(p); });
  return it == resident_.end() ? nullptr : *it;
}

bool worker::in_local_memory(const void* p) const {
  return std::any_of(fibers_.begin(), fibers_.end(), [&](const auto& f) { return f->stack_holds(p); });
}

void worker::wait_until_woken(fiber& self, block_state& block) {
  // The threads it may wait for may not have started: a loop fiber runs
  // threads one after another, so give the rest of the block a fiber.
  if (block.needs_starter()) start_fiber_for(block, /*run_next=*/true);
  switch_away(self);
  if (block.grid().aborted()) abandon_thread();
}

void worker::report_hang() {
  note_schedule_for_replay();
  if (grid_barrier_.arrived != 0) {
    report("kernel {}: {} of the grid's {} threads that have not exited wait at grid.sync(); the others cannot "
           "reach it:",
           grid_->kernel_name(), grid_barrier_.arrived,
           grid_->block_count() * grid_->threads_per_block() - grid_barrier_.exited);
  }
  for (block_state* block : resident_) {
    const uint3 b = block->block_idx();
    report("kernel {}: block ({},{},{}) can make no progress: every thread left is waiting and nothing can wake it{}",
           block->grid().kernel_name(), b.x, b.y, b.z, block->describe_waits());
  }
}


void worker::note_running(const thread_context& t) {
  if (t.block != nullptr) {
    activity_.block_linear.store(t.block->linear_index(), std::memory_order_relaxed);
    activity_.running_thread.store(&t, std::memory_order_release);
  }
}

void worker::resume(fiber& f) {
  bump(activity_.switches);
  note_running(f.thread);
  running_ = &f;
  current_thread = &f.thread;
  publish_builtins(f.thread);
  home_.switch_to(f.context);
  running_ = nullptr;
  current_thread = nullptr;
}

fiber* worker::pick_scheduled() {
  if (ready_.empty()) return nullptr;
  const schedule_policy& policy = active_schedule();
  ++picks_;
  switch (policy.kind) {
    case schedule_kind::reverse: return ready_.take_at(ready_.size() - 1);
    case schedule_kind::random: return ready_.take_at(random_.below(ready_.size()));
    case schedule_kind::pct:
      // At a change point the thread that just gave way drops below every other.
      for (std::uint64_t point : change_points_) {
        if (point == picks_ && running_ != nullptr) running_->priority = policy.depth - (&point - change_points_);
      }
      return ready_.take_at(ready_.index_of_highest_priority());
    case schedule_kind::in_order: break;
  }
  return ready_.pop_front();
}

void worker::draw_priority(fiber& f) {
  // Above every priority a change point gives (those are below 1000).
  f.priority = 1000 + (random_.next() >> 1);
}

bool worker::run_one_thread(void (*run_thread)(const void*), const void* call) {
  try {
    // Race checking: the kernel's code runs under the CUDA thread's own
    // identity, after what happened before its grid started and before
    // what follows the grid's completion.
    // (A thread of a block the check does not follow keeps its fiber's own
    // identity, unchecked: sched/race_sample.hpp.)
    const block_state& block = *running_->thread.block;
    const bool followed = block.race_followed;
    if (race::enabled && running_->race_stack_offset != 0) {
      // The kernel's frames go in the fresh window fresh_stack_window() chose.
      volatile char* below = static_cast<char*>(__builtin_alloca(running_->race_stack_offset));
      below[0] = 0;
    }
    if (followed) {
      race::enter_user(running_->context);
      race::acquire(block.grid().race_start_token());
    } else {
      race::unfollowed_begins();
    }
    try {
      run_thread(call);
    } catch (const thread_exit&) {
      // PTX `exit`: the thread's return.
    }
    if (followed) {
      race::release(block.grid().race_done_token());
      race::leave_user(running_->context);
    } else {
      race::unfollowed_ends();
    }
    return true;
  } catch (...) {
    report_escaped_exception();
  }
  return false;
}

void worker::report_escaped_exception() {
  const char* what = "an exception that is not a std::exception";
  try {
    throw;  // the exception being handled, to learn what it is
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  const thread_context& t = running_->thread;
  const uint3 index = thread_index_of(t);
  report("kernel {}: block ({},{},{}), thread ({},{},{}): a C++ exception escaped the kernel: {}",
         t.block->grid().kernel_name(), t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x,
         index.y, index.z, what);
  note_schedule_for_replay();
}

void worker::fiber_loop(fiber& self) {
  for (;;) {
    block_state& block = *self.thread.block;
    if (block.queued_starter == &self) block.queued_starter = nullptr;  // it runs: no longer queued
    if (!run_threads(self, block)) {
      block.remove_fiber(self);
    }
    if (self.unguarded_stack) check_unguarded_stack(self, /*finished=*/true);
    self.thread.block = nullptr;
    park_idle(self);
    if (ready_.empty() && admit_next_cluster_here()) {
      // The fiber just parked is the one the block admitted starts on (the
      // idle fibers are a stack): it goes on with the block, without a
      // round trip through the worker's own context.
      fiber* next = pick_next();
      if (next == &self) {
        bump(activity_.switches);  // as a resume(): the watchdog sees the worker move on
        note_running(self.thread);
      } else {
        hand_over(self, next);
      }
      continue;
    }
    switch_away(self);
  }
}

// What run()'s loop would do next, done on a fiber that has finished its
// block, when that is only to admit the grid's next cluster: nothing else
// is ready, no child grid waits for room, no schedule policy picks
// fibers, no checking runtime tracks the switch.
bool worker::admit_next_cluster_here() {
  if (race::enabled || scheduled_ || grid_ == nullptr || !sequences_.empty() || grid_->aborted()) return false;
  std::uint64_t cluster = 0;
  if (primary_resident_ + grid_->cluster_blocks() > resident_limit() ||
      !grid_->take_cluster(cluster, index_)) {
    return false;
  }
  admit_cluster(*grid_, cluster);
  return true;
}

bool worker::run_threads(fiber& self, block_state& block) {
  const kernel_invocation& kernel = block.grid().invocation();
  if (block.grid().how_threads_start() == grid_job::thread_start::kernel_loop) {
    return run_thread_loop(self, block, kernel);
  }
  const void* call = kernel.call.get();
  bool published = false;
  while (!block.grid().aborted() && block.take_thread(self.thread)) {
    note_thread_start(self);
    if (race::enabled && block.race_followed) {
      race::thread_begins(self.context, self.thread);
      self.race_stack_offset = self.fresh_stack_window();  // locals of the thread before are not this one's
    }
    // The block's values change only with the block: after the first
    // thread, only threadIdx needs storing.
    if (published) {
      threadIdx = self.thread.thread_idx;
    } else {
      publish_builtins(self.thread);
      published = true;
    }
    if (!run_one_thread(kernel.run_thread, call)) {
      // The exception is gone: leave the handler before leaving the fiber,
      // since the C++ runtime's record of caught exceptions is per OS thread.
      block.grid().abort(cudaErrorLaunchFailure);
      abandon_thread();
    }
    if (block.race_followed) race::thread_ends(self.context);
    if (threads_ended(block, self.thread.linear_tid, 1)) return true;
  }
  return false;
}

grid_job::thread_start grid_job::how_threads_start() const {
  if (race::enabled) return thread_start::race_checking;
  if (scheduled_) return thread_start::schedule_policy;  // (read at the launch: every block asks)
  return invocation_.run_threads != nullptr ? thread_start::kernel_loop : thread_start::instrumented;
}

bool worker::run_thread_loop(fiber& self, block_state& block, const kernel_invocation& kernel) {
  if (block.grid().aborted() || !block.take_thread(self.thread)) return false;
  publish_builtins(self.thread);
  thread_loop loop{block.thread_cursor(),
                   block.thread_count(),
                   self.thread.block_dim,
                   &self.thread,
                   &record_loop,
                   this,
                   block.grid().kernel().threads_never_wait.load(std::memory_order_relaxed)};
  self.in_loop = true;
  self.loop_never_waits = loop.threads_never_wait;
  self.loop_first_unrecorded = self.thread.linear_tid;
  self.loop_indexed_thread = UINT_MAX;  // none yet
  for (;;) {
    try {
      const bool block_ended = kernel.run_threads(kernel.call.get(), loop);
      self.in_loop = false;
      return block_ended;
    } catch (const thread_exit&) {
      // PTX `exit` ended the running thread: the loop goes on after it (out
      // of the handler).
    } catch (...) {
      report_escaped_exception();
      break;
    }
    if (const std::optional<bool> block_ended = go_on_after_exit(self, loop)) {
      self.in_loop = false;
      return *block_ended;
    }
  }
  self.in_loop = false;
  // As in run_threads: out of the handler first.
  block.grid().abort(cudaErrorLaunchFailure);
  abandon_thread();
}

std::optional<bool> worker::go_on_after_exit(fiber& self, thread_loop& loop) {
  const unsigned int next = std::max(*loop.next_thread, self.thread.linear_tid + 1);
  const thread_loop::after_exit after = record_loop(loop, next);  // the ended thread's exit, and `next` starts
  if (after != thread_loop::after_exit::next || next >= loop.thread_count) {
    return after == thread_loop::after_exit::block_ended;
  }
  // The loop reads where it starts from the context (thread_loop::start).
  self.thread.thread_idx = thread_index_at(next, loop.block_dim);
  threadIdx = self.thread.thread_idx;
  set_linear_tid(self.thread, next);
  self.loop_indexed_thread = next;
  return std::nullopt;
}

thread_loop::after_exit worker::record_loop(thread_loop& loop, unsigned int next) {
  worker& self = *static_cast<worker*>(loop.worker);
  block_state& block = *loop.thread->block;
  const bool starts_one = next < loop.thread_count;
  *loop.next_thread = starts_one ? next + 1 : loop.thread_count;  // `next` starts now
  // The running thread has ended. (After a stop, the loop's final record
  // finds nothing: the first unrecorded is past it.)
  const unsigned int end = loop.thread->linear_tid + 1;
  if (self.record_loop_exits(*loop.thread->self, block, end, starts_one ? next : end)) {
    return thread_loop::after_exit::block_ended;
  }
  return block.grid().aborted() ? thread_loop::after_exit::stop : thread_loop::after_exit::next;
}

bool worker::record_loop_exits(fiber& self, block_state& block, unsigned int end, unsigned int first_after) {
  const unsigned int first = self.loop_first_unrecorded;
  self.loop_first_unrecorded = first_after;
  return first < end && threads_ended(block, first, end - first);
}

void worker::fail_wait_against_facts() {
  fail_grid("it comes to a wait (a barrier, a warp collective, an atomic, a fence or a device-side sync), though "
            "cusim-cc's front end found that the kernel's threads never wait, and cusim runs them one after another. "
            "This is a bug in cusim-cc: please report it with the kernel. Building the file with "
            "CUSIM_CC_KERNEL_FACTS=0 in cusim-cc's environment avoids it.",
            cudaErrorLaunchFailure);
  abandon_thread();
}

void worker::record_loop_progress_slowly(fiber& self) {
  block_state& block = *self.thread.block;
  const unsigned int running = self.thread.linear_tid;  // alive: it enters a wait
  self.thread.thread_idx = threadIdx;
  self.loop_indexed_thread = running;
  if (self.loop_first_unrecorded == running) return;
  unsigned int& cursor = *block.thread_cursor();
  if (cursor <= running) cursor = running + 1;
  record_loop_exits(self, block, running, running);  // cannot end the block: `running` has not ended
}

// The usual exit (nothing of the block waits: no barrier gathering, no
// collective pending) costs a few counters; each guard below is one test.
bool worker::threads_ended(block_state& block, unsigned int first, unsigned int count) {
  bump(activity_.exits, count);
  fiber_queue woken;
  const bool last_of_block = block.threads_exited(first, count, woken);
  if (block.cluster != nullptr) block.cluster->threads_exited(count, woken);
  const bool cooperative = block.grid().shape().cooperative;
  if (last_of_block) {
    finish_block(block);  // may end the block's grid: `block` must not be used after it
    if (cooperative) grid_threads_exited(count);
    ready_.append(woken);  // threads of cluster peers that waited for this one
    return true;
  }
  const unsigned int end = first + count;
  if (block.barrier_arrivals() != 0) {
    for (unsigned int t = first; t < end; ++t) check_exit_during_barrier(block, t);
    block.release_if_exits_completed(woken);
  }
  for (unsigned int t = first; t < end; t += lanes_per_warp - t % lanes_per_warp) {
    if (block.warp_of(t).has_news()) report_warp_news(block, t);
  }
  ready_.append(woken);
  if (cooperative) grid_threads_exited(count);
  return false;
}

void worker::spin_point(bool polling) {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  if (block.grid().aborted()) abandon_thread();
  // Whoever looks while it is away sees a thread that can go on, not one that waits.
  struct spinning_while_away {
    fiber& f;
    explicit spinning_while_away(fiber& f) : f(f) { f.spinning = true; }
    ~spinning_while_away() { f.spinning = false; }
  } away(self);
  // The thread it waits for may not have started: a loop fiber runs threads
  // one after another, so give the rest of the block a fiber of their own.
  if (block.needs_starter()) start_fiber_for(block, /*run_next=*/true);
  if (polling && room_for_spinners(block)) {
    // The worker's loop admits the block (run()); this thread goes on after it.
    ready_.push_back(&self);
    hand_over(self, nullptr);
    return;
  }
  if (ready_.empty()) {
    // It yielded, though nothing else could run: for the watchdog that is a
    // thread that waits (spins), not one that never lets others run.
    bump(activity_.switches);
    return;
  }
  if (!scheduled_) {
    ready_.push_back(&self);
    switch_away(self);
    return;
  }
  // A spinning thread lets another run whatever the policy would choose
  // (reverse or a high pct priority would pick it again and starve the thread
  // it waits for, where a GPU guarantees that one progress); under pct it
  // drops to the lowest priority.
  if (active_schedule().kind == schedule_kind::pct) self.priority = 0;
  fiber* next = pick_next();
  ready_.push_back(&self);
  hand_over(self, next);
}

bool worker::thread_identities_limited() { return race::enabled || sanitizer_fibers::tsan; }

// Threads that poll wait for another's work. When the threads this worker
// runs have polled many times and none has made progress meanwhile (exited,
// arrived at or passed a barrier, completed a warp collective), every one
// that runs may be polling for work of a block not yet started: a GPU would
// be running that block on another multiprocessor (programs that pass work
// between blocks through flags count on it, as long as the grid fits on the
// device). The worker then takes one more block resident, while the device
// would hold it and up to a budget of threads (each waiting thread holds a
// fiber; a ThreadSanitizer build follows at most 8128). Threads contending
// for a lock or a counter without a barrier between look the same, and get
// blocks resident early, as on a GPU.
bool worker::room_for_spinners(block_state& block) {
  // (Under race checking the grid's room, set at the launch, is the tighter bound: limited_resident_threads.)
  constexpr std::uint64_t polls_per_thread = 16, thread_budget = 16384;
  if (++polls_since_progress_ < polls_needed_) return false;
  // Looked at only now and then: a chain of child grids keeps thousands of blocks resident.
  std::uint64_t resident_threads = 0, progress = activity_.exits.load(std::memory_order_relaxed);
  for (block_state* b : resident_) {
    resident_threads += b->thread_count();
    const block_activity& done = b->activity();
    progress += done.barriers + done.warp_collectives + b->barrier_arrivals();
  }
  // 16 polls for each thread that can run (the rest wait at barriers and poll nothing).
  polls_needed_ = std::max(fewest_polls_before_admitting, polls_per_thread * (ready_.size() + 1));
  polls_since_progress_ = 0;
  if (progress != progress_at_last_look_) {
    progress_at_last_look_ = progress;
    return false;
  }
  grid_job& grid = block.grid();
  const unsigned int blocks = grid.cluster_blocks();
  if (&grid != grid_ || resident_threads + std::uint64_t{blocks} * grid.threads_per_block() > thread_budget ||
      !grid.take_spin_room(blocks)) {
    return false;
  }
  spin_resident_ += blocks;
  return true;
}

void worker::check_unguarded_stack(const fiber& self, bool finished) const {
  if (__builtin_frame_address(0) < self.stack().bottom()) {
    stop_for_unguarded_overflow(self, self.thread.block->grid().kernel_name(), "");
  }
  // Its block, even its grid, may be gone: named by the thread's own copy.
  if (finished && self.stack().overflowed()) {
    stop_for_unguarded_overflow(self, "", ", found when its frames had returned");
  }
}

void worker::stop_for_unguarded_overflow(const fiber& self, const std::string& kernel, const char* found) const {
  const uint3 where = self.thread.block_idx;
  fatal("{}a thread of block ({},{},{}) overflowed its {} KiB stack (a deep recursion, or large local arrays){}. "
        "With more fibers alive than the system's limit on memory mappings leaves guard pages for, its stack had "
        "none to stop it at the first byte, and its frames may have reached other threads' stacks: cusim stops the "
        "program. CUSIM_STACK_SIZE (bytes) or cudaDeviceSetLimit(cudaLimitStackSize, ...) before the launch gives "
        "threads more.",
        kernel.empty() ? "" : "kernel " + kernel + ": ", where.x, where.y, where.z, self.stack().size() / 1024,
        found);
}

void worker::abandon_thread() {
  fiber& self = *running_;
  // Race checking: what the thread did happens before the grid's completion,
  // as if it had returned.
  race::release(self.thread.block->grid().race_done_token());
  self.in_loop = false;  // its exits no longer matter: the grid is aborted
  running_ = nullptr;
  current_thread = nullptr;
  // The grid is aborted: the worker's loop reclaims this fiber with its block.
  self.context.switch_to(home_);
  __builtin_unreachable();
}

}  // namespace cusim::detail
