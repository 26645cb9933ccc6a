// The stall watchdog: while a grid runs, an OS thread of its own looks at
// each worker's activity once a second (more often under a shorter limit).
// A CUDA thread that runs for CUSIM_WATCHDOG seconds (fractions allowed;
// default 60; 0 turns the watchdog off) without any switch, or threads that
// keep switching while none of them finishes, are reported, once per grid
// and worker, with what to look for. Nothing is stopped: a long computation
// looks the same, and cannot be told apart.
// The same thread draws the progress line (progress_line.hpp).
#pragma once
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sched/progress_line.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

class stall_watchdog {
 public:
  explicit stall_watchdog(const std::vector<std::unique_ptr<worker>>& workers);
  ~stall_watchdog();
  stall_watchdog(const stall_watchdog&) = delete;
  stall_watchdog& operator=(const stall_watchdog&) = delete;

  // The grid the workers run now (nullptr: none).
  void watch(const grid_job* grid);

 private:
  struct sample {
    std::uint64_t switches = 0;
    std::uint64_t exits = 0;
    std::chrono::steady_clock::time_point last_switch, last_exit;
    unsigned int switching_checks = 0;  // consecutive checks that saw switches
    bool reported_running = false;
    bool reported_spinning = false;
  };
  void main_loop();
  void check(const grid_job& grid, std::size_t index, sample& s, std::chrono::steady_clock::time_point now);

  const std::vector<std::unique_ptr<worker>>& workers_;
  const std::chrono::milliseconds limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  const grid_job* grid_ = nullptr;
  std::vector<sample> samples_;
  progress_line progress_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cusim::detail
