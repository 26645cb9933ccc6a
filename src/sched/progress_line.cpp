#include "sched/progress_line.hpp"

#include <string>

#include <fmt/format.h>

#include "platform/console.hpp"
#include "sched/grid.hpp"
#include "support/env.hpp"

namespace cusim::detail {

std::chrono::milliseconds progress_line::delay() {
  static const std::chrono::milliseconds delay = env_seconds("CUSIM_PROGRESS", std::chrono::seconds(2));
  return delay;
}

bool progress_line::wanted() {
  static const bool wanted = delay().count() > 0 && platform::stderr_is_terminal();
  return wanted;
}

void progress_line::watch(const grid_job* grid, std::chrono::steady_clock::time_point now) {
  clear();
  if (grid != nullptr) {
    started_ = last_finish_ = now;
    finished_ = 0;
  }
}

void progress_line::update(const grid_job& grid, std::chrono::steady_clock::time_point now, bool watchdog_on) {
  const std::uint64_t done = grid.finished_blocks();
  if (done != finished_) {
    finished_ = done;
    last_finish_ = now;
  }
  if (now - started_ < delay()) return;
  const std::uint64_t total = grid.block_count();
  const double seconds = std::chrono::duration<double>(now - started_).count();
  const double rate = done / seconds;
  const auto idle = now - last_finish_;
  const std::string left =
      !watchdog_on && idle >= 2 * delay()
          ? fmt::format("; none finished for {} (CUSIM_WATCHDOG=10 reports what a stalled kernel waits for)",
                        seconds_text(idle))
      : done == 0 ? std::string("")
                  : fmt::format(", about {:.0f} s left", double(total - done) / rate);
  // \r and "erase line" (ESC [ K): the line is rewritten in place.
  platform::write_to_stderr(fmt::format("\rcusim: kernel {}: {} of {} blocks done ({:.1f}%), {:.0f} blocks/s{}\x1b[K",
                                grid.kernel_name(), done, total, 100.0 * double(done) / double(total), rate, left));
  shown_ = true;
}

void progress_line::clear() {
  if (!shown_) return;
  platform::write_to_stderr("\r\x1b[K");
  shown_ = false;
}

}  // namespace cusim::detail
