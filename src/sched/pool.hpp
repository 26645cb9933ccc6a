// The worker pool: runs a grid on N workers. The calling host thread is
// worker 0, so a one-worker run involves no other OS thread at all (and is
// reproducible); workers 1..N-1 are OS threads that sleep between grids.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sched/watchdog.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

class worker_pool {
 public:
  explicit worker_pool(unsigned int workers);
  ~worker_pool();
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  unsigned int size() const { return static_cast<unsigned int>(workers_.size()); }

  // Runs `grid` to completion on at most its first `participants` workers
  // (all by default), never more than the grid has clusters to hand out. One
  // grid at a time. Returns as soon as the grid is done: a helper that had
  // not woken up by then sits this grid out, so a small grid costs no wait
  // for an OS thread's wake-up (tens of microseconds on a virtual CPU).
  void run(grid_job& grid, const worker_settings& settings, unsigned int participants = ~0u);

  // Between grids: the most stack a CUDA thread has used so far.
  std::size_t deepest_stack_use() const;

 private:
  void helper_main(unsigned int index);

  std::vector<std::unique_ptr<worker>> workers_;
  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  grid_job* grid_ = nullptr;
  worker_settings settings_{};
  unsigned int participants_ = 0;
  unsigned long generation_ = 0;
  bool open_ = false;      // helpers may still join the current grid
  unsigned int busy_ = 0;  // helpers that joined it and are still running it
  bool stopping_ = false;
  std::unique_ptr<stall_watchdog> watchdog_;  // after the workers: destroyed first
};

}  // namespace cusim::detail
