#include "sched/grid.hpp"

#include <fmt/format.h>

#include "runtime/kernels.hpp"

namespace cusim::detail {

namespace {
std::uint64_t next_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return serial.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

grid_job::grid_job(const launch_shape& shape, kernel_invocation invocation, kernel_info& kernel,
                   std::size_t shared_limit)
    : shape_(shape),
      invocation_(std::move(invocation)),
      kernel_(kernel),
      block_count_(std::uint64_t{shape.grid.x} * shape.grid.y * shape.grid.z),
      threads_per_block_(shape.block.x * shape.block.y * shape.block.z),
      shared_limit_(shared_limit),
      serial_(next_serial()),
      scheduled_(!schedule_is_default()) {
  if (scheduled_) {
    const std::uint64_t per_cluster = std::uint64_t{shape.cluster.x} * shape.cluster.y * shape.cluster.z;
    block_order_ = start_order(per_cluster == 0 ? block_count_ : block_count_ / per_cluster, serial_);
  }
}

void grid_job::share_among(unsigned int workers) {
  const std::uint64_t clusters = block_count_ / cluster_blocks();
  batches_ = std::make_unique<cluster_batches>(workers, cluster_batches::batch_for(clusters, workers), clusters,
                                               next_block_);
}

uint3 grid_job::block_index(std::uint64_t linear) const {
  // Every block starts here: without divisions for a one-dimensional grid.
  if (shape_.grid.y == 1 && shape_.grid.z == 1) return uint3{static_cast<unsigned>(linear), 0, 0};
  const std::uint64_t gx = shape_.grid.x, gy = shape_.grid.y;
  return uint3{static_cast<unsigned>(linear % gx), static_cast<unsigned>(linear / gx % gy),
               static_cast<unsigned>(linear / (gx * gy))};
}

std::uint64_t grid_job::cluster_block_linear(std::uint64_t cluster, unsigned int rank) const {
  const dim3 c = shape_.cluster, g = shape_.grid;
  if (c.x == 1 && c.y == 1 && c.z == 1) return cluster;  // every block its own cluster: the usual launch
  const std::uint64_t across_x = g.x / c.x, across_y = g.y / c.y;
  const std::uint64_t cx = cluster % across_x, cy = cluster / across_x % across_y, cz = cluster / (across_x * across_y);
  const std::uint64_t bx = cx * c.x + rank % c.x, by = cy * c.y + rank / c.x % c.y, bz = cz * c.z + rank / (c.x * c.y);
  return bx + g.x * (by + std::uint64_t{g.y} * bz);
}

void grid_job::abort(cudaError_t error) {
  cudaError_t expected = cudaSuccess;
  error_.compare_exchange_strong(expected, error, std::memory_order_acq_rel);
  // The tree's root holds the flag every grid of the tree reads (aborted()).
  if (root_ != this) {
    root_->abort(error);
  } else {
    aborted_.store(true, std::memory_order_relaxed);
  }
}

std::string grid_job::kernel_name() const {
  if (const char* name = report_name(invocation_.function, invocation_.name)) return name;
  return fmt::format("kernel@{}", invocation_.function);
}

void grid_job::add_activity(const block_activity& block) {
  // Only a grid shared among workers has blocks finishing at once: one
  // worker's needs no lock and no atomic read-modify-write (the progress
  // line reads finished_blocks_ meanwhile, and the kernel report the rest
  // once the grid is done). Most blocks of most kernels add nothing else.
  const bool shared = batches_ != nullptr;
  if (block != block_activity{}) {
    std::unique_lock lock(activity_mutex_, std::defer_lock);
    if (shared) lock.lock();
    activity_ += block;
  }
  if (shared) {
    finished_blocks_.fetch_add(1, std::memory_order_relaxed);
  } else {
    finished_blocks_.store(finished_blocks_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
}

std::uint64_t grid_job::finished_blocks() const { return finished_blocks_.load(std::memory_order_relaxed); }

block_activity grid_job::activity() const {
  std::lock_guard lock(activity_mutex_);
  return activity_;
}

void grid_job::add_tail_launch(child_launch child) {
  std::lock_guard lock(tail_mutex_);
  tail_launches_.push_back(std::move(child));
}

std::vector<child_launch> grid_job::take_tail_launches() {
  std::lock_guard lock(tail_mutex_);
  return std::move(tail_launches_);
}

bool grid_job::first_report_at(const char* file, unsigned int line, int kind) {
  std::lock_guard lock(reported_mutex_);
  return reported_sites_.emplace(file, line, kind).second;
}

void (*device_grid_completed)(const grid_job& grid) = nullptr;

}  // namespace cusim::detail
