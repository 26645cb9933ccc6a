#include "sched/watchdog.hpp"

#include <algorithm>

#include "platform/console.hpp"
#include "sched/schedule.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {

std::chrono::milliseconds configured_limit() {
  // Off by default when stderr is a terminal: someone is watching, and the
  // progress line says when no block finishes. On (60 s) in tests and CI.
  // CUSIM_STALL_SECONDS is the setting's earlier name.
  using std::chrono::seconds;
  static const std::chrono::milliseconds limit =
      watchdog_setting(platform::stderr_is_terminal() ? seconds(0) : seconds(60));
  return limit;
}

// How often the watchdog looks: every second, or four times within a
// shorter limit or progress-line delay (tests set a fraction of a second
// rather than wait).
std::chrono::milliseconds check_interval(std::chrono::milliseconds limit) {
  using std::chrono::milliseconds;
  milliseconds shortest(1000);
  if (limit.count() > 0) shortest = std::min(shortest, limit);
  if (progress_line::wanted()) shortest = std::min(shortest, progress_line::delay());
  return std::clamp(shortest / 4, milliseconds(10), milliseconds(1000));
}

}  // namespace

stall_watchdog::stall_watchdog(const std::vector<std::unique_ptr<worker>>& workers)
    : workers_(workers), limit_(configured_limit()) {
  if (limit_.count() > 0 || progress_line::wanted()) thread_ = std::thread([this] { main_loop(); });
}

stall_watchdog::~stall_watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void stall_watchdog::watch(const grid_job* grid) {
  if (!thread_.joinable()) return;
  std::lock_guard lock(mutex_);
  grid_ = grid;
  const auto now = std::chrono::steady_clock::now();
  progress_.watch(grid, now);
  samples_.assign(workers_.size(), sample{0, 0, now, now, 0, false, false});
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    samples_[i].switches = workers_[i]->activity().switches.load(std::memory_order_relaxed);
    samples_[i].exits = workers_[i]->activity().exits.load(std::memory_order_relaxed);
  }
}

void stall_watchdog::main_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, check_interval(limit_));
    if (stopping_ || grid_ == nullptr) continue;
    const auto now = std::chrono::steady_clock::now();
    if (limit_.count() > 0) {
      for (std::size_t i = 0; i < samples_.size(); ++i) check(*grid_, i, samples_[i], now);
    }
    if (progress_line::wanted()) progress_.update(*grid_, now, limit_.count() > 0);
  }
}

void stall_watchdog::check(const grid_job& grid, std::size_t index, sample& s,
                           std::chrono::steady_clock::time_point now) {
  const worker_activity& a = workers_[index]->activity();
  if (!a.busy.load(std::memory_order_relaxed)) {
    s.last_switch = s.last_exit = now;  // idle, done with its share of the grid: not stalled
    return;
  }
  const std::uint64_t switches = a.switches.load(std::memory_order_relaxed);
  const std::uint64_t exits = a.exits.load(std::memory_order_relaxed);
  if (switches != s.switches) {
    s.switches = switches;
    s.last_switch = now;
    ++s.switching_checks;
  } else {
    s.switching_checks = 0;
  }
  if (exits != s.exits) {
    s.exits = exits;
    s.last_exit = now;
  }
  const auto seconds = [&](auto since) { return seconds_text(now - since); };
  const uint3 b = grid.block_index(a.block_linear.load(std::memory_order_relaxed));
  // Acquire: the context was made (a new fiber's) before the worker pointed at it.
  const thread_context* running = a.running_thread.load(std::memory_order_acquire);
  const uint3 t = thread_index_at(running != nullptr ? __atomic_load_n(&running->linear_tid, __ATOMIC_RELAXED) : 0,
                                  grid.shape().block);
  if (now - s.last_switch >= limit_ && !s.reported_running) {
    s.reported_running = true;
    note_schedule_for_replay();
    report("kernel {}: block ({},{},{}), thread ({},{},{}) has run for {} without reaching a point where another "
           "thread can run (a barrier, a warp collective, an atomic, a fence, __nanosleep). If it waits for another "
           "thread through a plain or volatile variable, that thread cannot run before it yields: put __nanosleep() "
           "or an atomic read in the loop. (A long computation in one thread looks the same; CUSIM_WATCHDOG=seconds "
           "sets this report's delay, 0 turns it off.)",
           grid.kernel_name(), b.x, b.y, b.z, t.x, t.y, t.z, seconds(s.last_switch));
  } else if (now - s.last_exit >= limit_ && s.switching_checks >= 2 && !s.reported_spinning) {
    s.reported_spinning = true;
    note_schedule_for_replay();
    report("kernel {}: no thread of the blocks on worker {} has finished for {}, though they keep switching (at "
           "barriers, atomics or sleeps; now block ({},{},{}), thread ({},{},{})): they may wait for something that "
           "nothing will do: another thread that cannot go on, blocks of the grid not started yet (more than the "
           "device holds at once, which a GPU would not start either; or blocks of a child grid, which start only "
           "as its parent's worker makes room: CUSIM_RESIDENT_BLOCKS), the host (a kernel cannot see what the host does while the host waits for it, in a synchronous "
           "call or with CUDA_LAUNCH_BLOCKING=1), or work that cannot start before this kernel ends (later in its "
           "stream, or waiting for it). (CUSIM_WATCHDOG=seconds sets this report's delay, 0 turns it off.)",
           grid.kernel_name(), index, seconds(s.last_exit), b.x, b.y, b.z, t.x, t.y, t.z);
  }
}

}  // namespace cusim::detail
