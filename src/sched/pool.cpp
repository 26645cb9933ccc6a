#include "sched/pool.hpp"

#include <algorithm>
#include <cstdint>

#include <cusim/profile.hpp>

namespace cusim::detail {

worker_pool::worker_pool(unsigned int workers) {
  if (workers == 0) workers = 1;
  for (unsigned int i = 0; i < workers; ++i) {
    workers_.push_back(std::make_unique<worker>());
    workers_.back()->set_index(i);
  }
  for (unsigned int i = 1; i < workers; ++i) helpers_.emplace_back([this, i] { helper_main(i); });
  watchdog_ = std::make_unique<stall_watchdog>(workers_);
}

worker_pool::~worker_pool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& t : helpers_) t.join();
}

void worker_pool::run(grid_job& grid, const worker_settings& settings, unsigned int participants) {
  // Blocks are handed out a cluster at a time, and a worker runs the grids
  // its blocks launch itself: a helper beyond the grid's clusters would find
  // nothing to do.
  const std::uint64_t clusters = grid.block_count() / grid.cluster_blocks();
  participants = static_cast<unsigned int>(std::min<std::uint64_t>({participants, clusters, workers_.size()}));
  const bool helped = participants > 1;
  if (helped) {
    grid.share_among(participants);
    {
      std::lock_guard lock(mutex_);
      grid_ = &grid;
      settings_ = settings;
      participants_ = participants;
      open_ = true;
      ++generation_;
    }
    work_ready_.notify_all();
  }
  watchdog_->watch(&grid);
  workers_[0]->run(grid, settings);
  if (helped) {
    // Worker 0 returns once no block is left to take and its own are done;
    // the helpers that joined may still be running theirs.
    std::unique_lock lock(mutex_);
    open_ = false;
    work_done_.wait(lock, [&] { return busy_ == 0; });
    grid_ = nullptr;
  }
  watchdog_->watch(nullptr);
}

std::size_t worker_pool::deepest_stack_use() const {
  std::size_t deepest = 0;
  for (const auto& w : workers_) deepest = std::max(deepest, w->deepest_stack_use());
  return deepest;
}

void worker_pool::helper_main(unsigned int index) {
  unsigned long seen = 0;
  for (;;) {
    grid_job* grid = nullptr;
    worker_settings settings{};
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (!open_ || index >= participants_) continue;
      grid = grid_;
      settings = settings_;
      ++busy_;
    }
    set_current_device(settings.device);
    workers_[index]->run(*grid, settings);
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    work_done_.notify_one();
  }
}

}  // namespace cusim::detail
