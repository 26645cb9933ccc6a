#include "sched/pool.hpp"

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
  {
    std::lock_guard lock(mutex_);
    grid_ = &grid;
    settings_ = settings;
    participants_ = participants;
    busy_ = static_cast<unsigned int>(helpers_.size());
    ++generation_;
  }
  if (!helpers_.empty()) work_ready_.notify_all();
  watchdog_->watch(&grid);
  workers_[0]->run(grid, settings);
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, [&] { return busy_ == 0; });
  grid_ = nullptr;
  watchdog_->watch(nullptr);
}

void worker_pool::helper_main(unsigned int index) {
  unsigned long seen = 0;
  for (;;) {
    grid_job* grid = nullptr;
    worker_settings settings{};
    bool takes_part = false;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      grid = grid_;
      settings = settings_;
      takes_part = index < participants_;
    }
    if (takes_part) {
      set_current_device(settings.device);
      workers_[index]->run(*grid, settings);
    }
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    work_done_.notify_one();
  }
}

}  // namespace cusim::detail
