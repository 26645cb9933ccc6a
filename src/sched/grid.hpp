// One launched grid while it runs: its shape, its kernel, the blocks not yet
// handed to a worker, and how it ended.
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cusim/detail/builtins.hpp>
#include <cusim/detail/kernel_call.hpp>

#include "sched/cluster_batches.hpp"
#include "sched/schedule.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

struct kernel_info;

// A launch made by device code, already checked as the device runtime checks
// it (shape resolved, cluster included), waiting to start.
struct child_launch {
  launch_shape shape;
  kernel_invocation invocation;
  kernel_info* kernel;
  std::size_t shared_limit;
  unsigned int depth;  // the nesting depth the grid will run at
  const void* race_token = nullptr;  // race checking: released by the launching thread
  std::uint64_t trace_flow = 0;      // the timeline trace: the launch's arrow (trace/trace.hpp)
};

// What a launch from the host and every grid it launches share. Launches
// from the host of different streams may run at once, each its own tree.
struct launch_tree {
  std::uint64_t serial = 0;  // device-side streams and events belong to one tree
  // Device-side launches recorded and not yet complete
  // (cudaLimitDevRuntimePendingLaunchCount bounds them).
  std::atomic<std::size_t> pending_launches{0};
  // The kernel report: grids launched from the device that completed, and
  // the deepest nesting among them.
  std::atomic<std::uint64_t> device_grids{0};
  std::atomic<unsigned int> deepest{0};
};

class grid_job {
 public:
  grid_job(const launch_shape& shape, kernel_invocation invocation, kernel_info& kernel,
           std::size_t shared_limit);

  const launch_shape& shape() const { return shape_; }
  const kernel_invocation& invocation() const { return invocation_; }
  // How its threads start: in the kernel's own loop (thread_loop.hpp), or
  // one at a time through the scheduler, which race checking and schedule
  // policies need at each thread's start; the kernel report says which.
  // (Defined with the worker, which race checking changes.)
  enum class thread_start { kernel_loop, race_checking, schedule_policy, instrumented };
  thread_start how_threads_start() const;
  kernel_info& kernel() const { return kernel_; }
  std::uint64_t block_count() const { return block_count_; }
  unsigned int threads_per_block() const { return threads_per_block_; }
  // Static plus dynamic shared memory one block may use.
  std::size_t shared_limit() const { return shared_limit_; }

  // Grids in the order they were made: seeds their schedule (sched/schedule.hpp).
  std::uint64_t serial() const { return serial_; }
  // Whether a schedule policy other than in-order was set at the launch.
  bool scheduled() const { return scheduled_; }

  // Hands out the next block's linear index, in the schedule's order; false
  // when all are taken.
  bool take_block(std::uint64_t& linear) {
    if (aborted()) return false;
    linear = next_block_.fetch_add(1, std::memory_order_relaxed);
    if (linear >= block_count_) return false;
    if (scheduled_) linear = block_order_(linear);
    return true;
  }
  uint3 block_index(std::uint64_t linear) const;

  // Clusters (a grid without them has clusters of one block): how many
  // blocks one holds, handing them out whole, and the linear index of the
  // block of rank `rank` (x fastest) in cluster `cluster`.
  unsigned int cluster_blocks() const { return shape_.cluster.x * shape_.cluster.y * shape_.cluster.z; }
  // `worker`: the taker's index among the workers running the grid, which
  // take batches once the grid is shared among several (share_among).
  bool take_cluster(std::uint64_t& cluster, unsigned int worker = 0) {
    if (aborted()) return false;
    if (batches_ != nullptr) {
      if (!batches_->take(worker, cluster)) return false;
    } else {
      // One worker takes the clusters of a grid not shared (a child grid's
      // are its parent block's worker's): no atomic read-modify-write.
      cluster = next_block_.load(std::memory_order_relaxed);
      if (cluster >= block_count_ / cluster_blocks()) return false;
      next_block_.store(cluster + 1, std::memory_order_relaxed);
    }
    if (scheduled_) cluster = block_order_(cluster);
    return true;
  }
  // Several workers (indices [0, workers)) take the grid's clusters, in
  // batches (sched/cluster_batches.hpp). Called before any is taken.
  void share_among(unsigned int workers);
  std::uint64_t cluster_block_linear(std::uint64_t cluster, unsigned int rank) const;

  // Ends the grid early with `error` (the first error wins): no block or
  // thread starts after this, as when a GPU traps.
  void abort(cudaError_t error);
  // (Aborting any grid of a tree sets the flag of the tree's root, the only
  // one read: one load on every wait's path.)
  bool aborted() const { return abort_flag().load(std::memory_order_relaxed); }
  // The flag aborted() reads, for a fiber to keep beside its hot fields.
  const std::atomic<bool>& abort_flag() const { return root_->aborted_; }
  cudaError_t error() const { return error_.load(std::memory_order_acquire); }

  // The kernel's name for reports.
  std::string kernel_name() const;

  // The kernel report: what the grid's finished blocks did, and when the
  // grid was made. add_activity is called once per finished block.
  void add_activity(const block_activity& block);
  block_activity activity() const;
  std::uint64_t finished_blocks() const;
  std::chrono::steady_clock::time_point made() const { return made_; }

  // Dynamic parallelism. `depth`: 0 for a grid the host launched, one more
  // for each device-side launch (a tail launch runs at its launcher's depth,
  // since it runs after the launcher has finished). A nested grid belongs to
  // the grid tree of `root`: a fault anywhere in the tree stops all of it (nest_under), as
  // a fault in a child grid ends the whole launch on a GPU.
  unsigned int depth = 0;
  void nest_under(grid_job& launcher) {
    root_ = launcher.root_;
    tree = launcher.tree;
  }
  launch_tree* tree = nullptr;
  // The timeline trace: the arrow from the device-side launch that made it
  // (0: none), whether the trace has been told of the grid, and what it is told.
  std::uint64_t trace_flow = 0;
  std::atomic<bool> trace_noted{false};
  trace::grid_identity trace_identity() const {
    return {serial(), kernel_name(), shape().grid, shape().block, trace_flow};
  }
  // The worker-local record of a nested grid (sched/children.hpp); null for a
  // grid the host launched.
  struct launch_sequence* sequence = nullptr;
  // Tail launches (cudaStreamTailLaunch): run after the grid and all its other work.
  void add_tail_launch(child_launch child);
  std::vector<child_launch> take_tail_launches();

  // Blocks that workers may keep resident beyond their usual number when
  // every thread they run spins (worker::room_for_spinners): up to what the
  // device holds at once (occupancy times multiprocessors). Set at the
  // launch; a grid launched from the device has none.
  void set_spin_room(long blocks) { spin_room_.store(blocks, std::memory_order_relaxed); }
  bool take_spin_room(unsigned int blocks) {
    long left = spin_room_.load(std::memory_order_relaxed);
    while (left >= long(blocks)) {
      if (spin_room_.compare_exchange_weak(left, left - long(blocks), std::memory_order_relaxed)) return true;
    }
    return false;
  }

  // Race checking (sched/race_check.hpp): what happens before the grid's
  // threads start (the host's work, or the launching thread's), and what
  // its threads' work happens before (the tree's completion, waits for children).
  const void* race_start_token() const { return race_start_ != nullptr ? race_start_ : this; }
  void set_race_start_token(const void* token) { race_start_ = token; }
  const void* race_done_token() const {
    return tree != nullptr ? static_cast<const void*>(tree) : reinterpret_cast<const char*>(root_) + 1;
  }

  // True the first time it is asked about a call site: reports about the
  // grid's code that every warp or block would repeat are made once.
  // `kind` tells apart different reports about one call site.
  bool first_report_at(const char* file, unsigned int line, int kind = 0);

 private:
  launch_shape shape_;
  kernel_invocation invocation_;
  kernel_info& kernel_;
  std::uint64_t block_count_;
  unsigned int threads_per_block_;
  std::size_t shared_limit_;
  std::uint64_t serial_;
  bool scheduled_;            // a schedule policy other than in-order
  start_order block_order_;  // then: the order clusters (blocks) start in
  std::atomic<bool> aborted_{false};  // the tree's, on its root (abort())
  std::atomic<long> spin_room_{0};
  std::atomic<cudaError_t> error_{cudaSuccess};
  grid_job* root_ = this;
  const void* race_start_ = nullptr;
  std::mutex tail_mutex_;
  std::vector<child_launch> tail_launches_;
  mutable std::mutex activity_mutex_;
  block_activity activity_;
  std::chrono::steady_clock::time_point made_ = std::chrono::steady_clock::now();
  std::mutex reported_mutex_;
  std::set<std::tuple<const char*, unsigned int, int>> reported_sites_;
  // Written by every worker at each block: each on a cache line of its
  // own, apart from the fields above that every block reads.
  alignas(64) std::atomic<std::uint64_t> next_block_{0};
  std::unique_ptr<cluster_batches> batches_;  // shared among several workers: their batches
  alignas(64) std::atomic<std::uint64_t> finished_blocks_{0};  // the progress line reads it while the grid runs
};

// Called by the worker when a grid launched from device code completes:
// the kernel report's (api/kernel_report.cpp, a layer above, sets it at
// start-up; null, nothing is told).
extern void (*device_grid_completed)(const grid_job& grid);

}  // namespace cusim::detail
