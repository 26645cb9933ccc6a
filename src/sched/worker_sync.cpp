// The worker's barriers: __syncthreads and its kinds (block_state keeps the
// count), barriers of part of a block, grid.sync(), the cluster barrier and
// distributed shared memory, and the checks of how threads reach them.
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "sched/race_check.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {
// CUSIM_CHECKS=fatal: a synchronisation check that fires stops the grid (for CI).
bool checks_are_fatal() {
  static const bool fatal = [] {
    const auto value = env_string("CUSIM_CHECKS");
    if (value && *value != "fatal" && *value != "warn") {
      report("CUSIM_CHECKS='{}' is not one of warn (the default) or fatal; using warn", *value);
    }
    return value && *value == "fatal";
  }();
  return fatal;
}
}  // namespace

void worker::grid_barrier(const char* file, unsigned int line) {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  if (block.grid().aborted()) abandon_thread();
  if (!block.grid().shape().cooperative) {
    const thread_context& t = self.thread;
    const uint3 index = thread_index_of(t);
    if (block.grid().first_report_at(file, line)) report("kernel {}: block ({},{},{}), thread ({},{},{}): grid.sync() at {}:{} in a grid that was not launched "
           "cooperatively (cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with cudaLaunchAttributeCooperative): "
           "its blocks need not be resident together, and on a GPU the call is undefined. The grid stops "
           "(cudaErrorLaunchFailure).",
           block.grid().kernel_name(), t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x, index.y,
           index.z, file, line);
    block.grid().abort(cudaErrorLaunchFailure);
    abandon_thread();
  }
  self.race_token = grid_barrier_.race_token;
  {
    race::runtime_scope bookkeeping;
    ++grid_barrier_.arrived;
    grid_barrier_.waiters.push_back(&self);
    release_grid_barrier_if_complete();
    if (block.needs_starter()) start_fiber_for(block, /*run_next=*/true);
  }
  wait_at_token(self);
  if (block.grid().aborted()) abandon_thread();
}

template <class... Args>
void worker::fail_in_kernel(fmt::format_string<Args...> format, Args&&... args) {
  fail_grid(fmt::format(format, std::forward<Args>(args)...));
  abandon_thread();
}

cluster_state& worker::cluster_of(block_state& block) {
  if (block.cluster == nullptr) {
    // A grid launched without clusters: on sm_90 each block is a cluster of one.
    auto& state = *clusters_.emplace_back(std::make_unique<cluster_state>());
    state.start({&block}, block.thread_count());
    fiber_queue none;
    state.threads_exited(block.exited_threads(), none);
    block.cluster = &state;
  }
  return *block.cluster;
}

std::uint64_t worker::cluster_arrive() {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  if (block.grid().aborted()) abandon_thread();
  cluster_state* cluster = nullptr;
  {
    race::runtime_scope bookkeeping;
    cluster = &cluster_of(block);
  }
  // Race checking: the phase's token (two alternate: a thread arrives at the
  // next phase only after it waited for this one).
  race::release(reinterpret_cast<const char*>(cluster) + (cluster->phase() & 1));
  race::runtime_scope bookkeeping;
  fiber_queue woken;
  self.cluster_phase = cluster->arrive(woken);
  ready_.append(woken);
  return self.cluster_phase;
}

void worker::cluster_wait(std::uint64_t phase) {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  const void* token = nullptr;
  {
    race::runtime_scope bookkeeping;
    cluster_state& cluster = cluster_of(block);
    token = reinterpret_cast<const char*>(&cluster) + (phase & 1);
    if (!cluster.passed(phase)) {
      cluster.park(self, phase);
      if (block.needs_starter()) start_fiber_for(block, /*run_next=*/true);
      switch_away(self);
    }
  }
  if (block.grid().aborted()) abandon_thread();
  race::acquire(token);
}

void* worker::cluster_map_shared(void* address, unsigned int rank, const char* file, unsigned int line) {
  block_state& block = *running_->thread.block;
  cluster_state& cluster = cluster_of(block);
  if (!block.owns_shared(address)) {
    fail_in_kernel("map_shared_rank at {}:{} was given {}, which is not in this block's shared memory.", file, line,
                   address);
  }
  if (rank >= cluster.size()) {
    fail_in_kernel("map_shared_rank at {}:{} asks for block rank {} of a cluster of {} blocks.", file, line, rank,
                   cluster.size());
  }
  block_state& peer = cluster.block(rank);
  if (peer.finished) {
    const uint3 b = peer.block_idx();
    fail_in_kernel("map_shared_rank at {}:{} maps the shared memory of block ({},{},{}) (cluster rank {}), which has "
                   "already exited: its shared memory is gone. A cluster.sync() before any block exits keeps every "
                   "block's shared memory alive while others use it.",
                   file, line, b.x, b.y, b.z, rank);
  }
  void* mapped = block.same_place_in(peer, address);
  if (mapped == nullptr) {
    fail_in_kernel("map_shared_rank at {}:{}: {} lies in no __shared__ variable of this block.", file, line, address);
  }
  return mapped;
}

unsigned int worker::cluster_query_rank(const void* address) {
  cluster_state& cluster = cluster_of(*running_->thread.block);
  for (unsigned int rank = 0; rank < cluster.size(); ++rank) {
    if (cluster.block(rank).owns_shared(address)) return rank;
  }
  return 0;
}

void worker::partial_barrier(unsigned int first, unsigned int count) {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  if (block.grid().aborted()) abandon_thread();
  {
    race::runtime_scope bookkeeping;
    fiber_queue woken;
    // Complete or not, the arrival is queued as a waiter: the threads leave in arrival order.
    block.partial_barrier_arrive(self, first, count, woken);
    ready_.append(woken);
    if (block.needs_starter()) start_fiber_for(block, /*run_next=*/true);
  }
  wait_at_token(self);
  if (block.grid().aborted()) abandon_thread();
}

void worker::grid_threads_exited(unsigned int count) {
  grid_barrier_.exited += count;
  release_grid_barrier_if_complete();
}

// Every thread of the grid that has not exited has arrived: all go on, in
// the order they arrived.
void worker::release_grid_barrier_if_complete() {
  const std::uint64_t total = grid_->block_count() * grid_->threads_per_block();
  if (grid_barrier_.arrived == 0 || grid_barrier_.arrived + grid_barrier_.exited < total) return;
  grid_barrier_.arrived = 0;
  grid_barrier_.race_token = race::fresh_token();
  ready_.append(grid_barrier_.waiters);
}

barrier_outcome worker::barrier(int predicate, const char* file, unsigned int line) {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  self.race_token = block.barrier_race_token;
  {
    race::runtime_scope bookkeeping;
    // The usual arrival (the barrier's first site again, no thread gone) is
    // two compares; the checks themselves only otherwise.
    if (file != block.barrier_file || line != block.barrier_line || block.exited_threads() != 0) {
      check_barrier_arrival(block, file, line);
    }
    fiber_queue woken;
    if (block.barrier_arrive(self, predicate, woken)) {
      // The last to arrive lets the others go first, so that threads leave a
      // barrier in the order they reached it.
      ready_.append(woken);
      ready_.push_back(&self);
    } else {
      ready_.append(woken);  // lanes of its warp whose __activemask waited for it to park
      if (block.needs_starter()) {
        // This fiber now waits with its thread; another carries on with the
        // threads not yet started (the loop-fiber scheme).
        start_fiber_for(block, /*run_next=*/true);
      }
    }
  }
  wait_at_token(self);
  if (self.grid_aborted()) abandon_thread();
  return block.released_outcome();
}

void worker::check_barrier_arrival(block_state& block, const char* file, unsigned int line) {
  if (file == nullptr) return;
  const thread_context& t = running_->thread;
  grid_job& grid = block.grid();
  if (block.barrier_file == nullptr) {
    block.barrier_file = file;
    block.barrier_line = line;
    block.barrier_first_thread = thread_index_of(t);
  } else if (block.barrier_line != line ||
             (block.barrier_file != file && std::strcmp(block.barrier_file, file) != 0)) {
    // (The test above costs every arrival at the same site two compares; a
    // string compare only for two copies of one file's name.)
    const uint3 b = t.block_idx, first = block.barrier_first_thread;
    const uint3 index = thread_index_of(t);
    if (grid.first_report_at(file, line, /*kind: two sites*/ 1)) check_failed(grid, fmt::format(
        "kernel {}: block ({},{},{}): thread ({},{},{}) reaches __syncthreads at {}:{} while thread ({},{},{}) waits "
        "at the one at {}:{}. From sm_70 on a GPU counts them as one barrier and goes on (so does cusim); older "
        "GPUs hang, and code that expects each barrier to order its own part of the kernel is wrong.",
        grid.kernel_name(), b.x, b.y, b.z, index.x, index.y, index.z, file, line, first.x,
        first.y, first.z, block.barrier_file, block.barrier_line));
  }
  if (block.exited_threads() > 0 && grid.first_report_at(file, line, /*kind: threads gone*/ 2)) {
    const uint3 b = t.block_idx;
    const uint3 index = thread_index_of(t);
    check_failed(grid, fmt::format(
        "kernel {}: block ({},{},{}): thread ({},{},{}) waits at __syncthreads at {}:{}, but {} of the block's {} "
        "threads have exited without reaching it (an early return?). From sm_70 on exited threads do not hold a "
        "barrier and the block goes on (so does cusim), but what they would have written before it is missing.",
        grid.kernel_name(), b.x, b.y, b.z, index.x, index.y, index.z, file, line,
        block.exited_threads(), block.thread_count()));
  }
}

void worker::check_exit_during_barrier(block_state& block, unsigned int linear_tid) {
  if (block.barrier_arrivals() == 0 || block.barrier_file == nullptr) return;
  grid_job& grid = block.grid();
  if (!grid.first_report_at(block.barrier_file, block.barrier_line, /*kind: threads gone*/ 2)) return;
  const uint3 b = block.block_idx();
  const dim3 d = grid.shape().block;
  check_failed(grid, fmt::format(
      "kernel {}: block ({},{},{}): thread ({},{},{}) exits without reaching the __syncthreads at {}:{} where {} "
      "threads of the block wait (an early return?). From sm_70 on exited threads do not hold a barrier and the "
      "block goes on (so does cusim), but what they would have written before it is missing.",
      grid.kernel_name(), b.x, b.y, b.z, linear_tid % d.x, linear_tid / d.x % d.y, linear_tid / (d.x * d.y),
      block.barrier_file, block.barrier_line, block.barrier_arrivals()));
}

void worker::check_failed(grid_job& grid, const std::string& problem) {
  const bool fatal = checks_are_fatal();
  report("{}{}", problem, fatal ? " CUSIM_CHECKS=fatal: the grid stops (cudaErrorLaunchFailure)." : "");
  note_schedule_for_replay();
  if (fatal) grid.abort(cudaErrorLaunchFailure);
}

}  // namespace cusim::detail
