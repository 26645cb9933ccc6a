// The progress line: for a grid that runs long, while stderr is a terminal,
// one line on stderr rewritten in place each second: blocks done of the
// total, the rate and the time left. Silent when stderr is not a terminal
// (logs, CI) or with CUSIM_PROGRESS=0; CUSIM_PROGRESS=N shows it after N
// seconds (default 2). Driven by the stall watchdog's thread (watchdog.hpp),
// which is off by default on a terminal: when no block has finished for
// twice that delay, the line says so and how to learn why.
#pragma once
#include <chrono>
#include <cstdint>

namespace cusim::detail {

class grid_job;

class progress_line {
 public:
  // Whether progress lines are shown at all in this process.
  static bool wanted();
  // How long a grid runs before the line appears (CUSIM_PROGRESS seconds).
  static std::chrono::milliseconds delay();

  // A new grid starts now (nullptr: none runs; clears a line shown).
  void watch(const grid_job* grid, std::chrono::steady_clock::time_point now);
  // Called about once a second while `grid` runs; with the stall watchdog
  // off, a grid whose blocks stop finishing gets a hint to turn it on.
  void update(const grid_job& grid, std::chrono::steady_clock::time_point now, bool watchdog_on);

 private:
  void clear();
  std::chrono::steady_clock::time_point started_, last_finish_;
  std::uint64_t finished_ = 0;
  bool shown_ = false;
};

}  // namespace cusim::detail
