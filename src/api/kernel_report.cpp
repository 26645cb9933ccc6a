#include "api/kernel_report.hpp"

#include <string>

#include <cusim/profile.hpp>
#include <fmt/format.h>

#include "api/kernel_summary.hpp"
#include "api/occupancy.hpp"
#include "platform/console.hpp"
#include "runtime/kernels.hpp"
#include "sched/grid.hpp"
#include "sched/schedule.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {

const char* limit_name(occupancy_limit limit) {
  switch (limit) {
    case occupancy_limit::warps: return "warps";
    case occupancy_limit::blocks: return "blocks";
    case occupancy_limit::shared_memory: return "shared memory";
    case occupancy_limit::registers: return "registers";
  }
  return "?";
}

std::string dims(dim3 d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }
std::string json_dims(dim3 d) { return fmt::format("[{},{},{}]", d.x, d.y, d.z); }

// What one entry says, computed once for either format.
struct kernel_facts {
  std::string name, where;
  unsigned int threads, warps, idle_lanes;
  std::size_t static_shared, dynamic_shared;
  occupancy fit;
  int warps_per_multiprocessor;
  double occupancy_percent, wall_ms;
  register_use registers;
  block_activity activity;
  std::uint64_t device_grids;
  unsigned int deepest;
  stack_use stacks;
  std::string threads_run_by;  // the kernel's loop, or the scheduler and why
  const char* kernel_called = "";  // by_name (direct_kernel_call) or through_pointer
  bool never_waits = false;        // in the kernel's loop, row by row (the front end's facts)
  const char* runner;          // the same as a JSON value
};

kernel_facts facts_of(const grid_job& grid, std::chrono::steady_clock::duration wall) {
  const launch_shape& shape = grid.shape();
  const device_profile& p = active_profile();
  kernel_facts f;
  f.name = grid.kernel_name();
  f.where = shape.file != nullptr ? fmt::format(" at {}:{}", shape.file, shape.line) : "";
  f.threads = grid.threads_per_block();
  f.warps = (f.threads + 31) / 32;
  f.idle_lanes = f.warps * 32 - f.threads;
  f.static_shared = grid.kernel().static_shared.load(std::memory_order_relaxed);
  std::string why_scheduler;
  switch (grid.how_threads_start()) {
    case grid_job::thread_start::kernel_loop: break;
    case grid_job::thread_start::race_checking: why_scheduler = "race checking is on"; break;
    case grid_job::thread_start::schedule_policy: why_scheduler = "CUSIM_SCHEDULE=" + active_schedule().text(); break;
    case grid_job::thread_start::instrumented:
      why_scheduler = "--warp-mode=lockstep or --check=banks instruments the program";
      break;
  }
  f.runner = why_scheduler.empty() ? "kernel_loop" : "scheduler";
  const bool by_name = why_scheduler.empty() && grid.invocation().called_by_name;
  f.kernel_called = by_name ? "by_name" : "through_pointer";
  f.never_waits = why_scheduler.empty() && grid.kernel().threads_never_wait.load(std::memory_order_relaxed);
  f.threads_run_by = why_scheduler.empty()
                         ? fmt::format("run one after another in the kernel's own loop, which calls it {}, {}",
                                       by_name ? "by name (compiled into the loop where the compiler inlines it)"
                                               : "through its pointer",
                                       f.never_waits ? "row by row: cusim-cc's front end found that they never wait"
                                                     : "each on a fiber of its own once it waits")
                         : "started one at a time by the scheduler (" + why_scheduler + ")";
  f.dynamic_shared = shape.dynamic_shared_bytes;
  const void* function = grid.invocation().function;
  f.fit = occupancy_of(grid.kernel(), function, f.threads, f.dynamic_shared);
  f.warps_per_multiprocessor = f.fit.blocks_per_multiprocessor * int(f.warps);
  f.occupancy_percent = 100.0 * f.warps_per_multiprocessor / (p.max_threads_per_multiprocessor / 32);
  f.wall_ms = std::chrono::duration<double, std::milli>(wall).count();
  f.registers = registers_of(function);
  f.activity = grid.activity();
  f.device_grids = grid.tree != nullptr ? grid.tree->device_grids.load() : 0;
  f.deepest = grid.tree != nullptr ? grid.tree->deepest.load() : 0;
  return f;
}

void write_json(const grid_job& grid, const kernel_facts& f, cudaError_t outcome) {
  const launch_shape& shape = grid.shape();
  const block_activity& a = f.activity;
  std::string line = fmt::format(
      "{{\"kernel\": \"{}\", \"grid\": {}, \"block\": {}, \"cluster\": {}, \"threads_per_block\": {}, "
      "\"warps_per_block\": {}, \"idle_lanes\": {}, \"static_shared_bytes\": {}, \"dynamic_shared_bytes\": {}, "
      "\"registers_per_thread\": {}, \"profile\": \"{}\", \"blocks_per_multiprocessor\": {}, "
      "\"warps_per_multiprocessor\": {}, \"occupancy_percent\": {:.1f}, \"limited_by\": \"{}\", "
      "\"barriers\": {}, \"warp_collectives\": {}, \"atomics\": {}, \"fences\": {}, \"device_launches\": {}, "
      "\"device_grids\": {}, \"deepest_nesting\": {}, \"stack_used_bytes\": {}, \"stack_bytes\": {}, "
      "\"threads_run_by\": \"{}\", \"kernel_called\": \"{}\", \"threads_never_wait\": {}, \"result\": \"{}\", "
      "\"wall_ms\": {:.3f}}}\n",
      f.name, json_dims(shape.grid), json_dims(shape.block), json_dims(shape.cluster), f.threads, f.warps,
      f.idle_lanes, f.static_shared, f.dynamic_shared, f.registers.per_thread, active_profile().id,
      f.fit.blocks_per_multiprocessor, f.warps_per_multiprocessor, f.occupancy_percent, limit_name(f.fit.limited_by),
      a.barriers, a.warp_collectives, a.atomics, a.fences, a.device_launches, f.device_grids, f.deepest,
      f.stacks.deepest, f.stacks.size, f.runner, f.kernel_called, f.never_waits, cudaGetErrorName(outcome),
      f.wall_ms);
  // One write, so that lines from several device threads never interleave.
  platform::write_to_stderr(line);
}

std::string plural(unsigned long long count, const char* one, const char* many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

// A short block of lines, one fact each, written at once.
void write_text(const grid_job& grid, const kernel_facts& f, cudaError_t outcome) {
  const launch_shape& shape = grid.shape();
  const block_activity& a = f.activity;
  const std::string lanes =
      f.idle_lanes == 0 ? "every lane used" : fmt::format("the last has {} idle lanes", f.idle_lanes);
  const std::string cluster = shape.cluster.x * shape.cluster.y * shape.cluster.z > 1
                                  ? fmt::format(" in clusters of {}", dims(shape.cluster))
                                  : "";
  const std::string registers = f.registers.per_thread != 0
                                    ? fmt::format("{} per thread, {}", f.registers.per_thread, f.registers.source)
                                    : std::string(f.registers.source);
  std::string text = fmt::format("report: kernel {}{}: {} in {:.3f} ms\n", f.name, f.where,
                                 cudaGetErrorName(outcome), f.wall_ms);
  text += fmt::format("  launch     grid {} of blocks {}{}, {} per block in {} ({})\n", dims(shape.grid),
                      dims(shape.block), cluster, plural(f.threads, "thread", "threads"), plural(f.warps, "warp", "warps"), lanes);
  text += fmt::format("  shared     {} B static + {} B dynamic per block\n", f.static_shared, f.dynamic_shared);
  // Pages stay committed once touched: the deepest use by any thread so far.
  text += fmt::format("  stack      threads have used up to {} KiB of their {} KiB so far (CUSIM_STACK_SIZE sets it)\n",
                      (f.stacks.deepest + 1023) / 1024, f.stacks.size / 1024);
  text += fmt::format("  occupancy  on {} {} per multiprocessor fit ({} of {} warps, {:.0f}%), limited by {} "
                      "(registers: {})\n",
                      active_profile().id, plural(f.fit.blocks_per_multiprocessor, "block", "blocks"),
                      f.warps_per_multiprocessor, active_profile().max_threads_per_multiprocessor / 32,
                      f.occupancy_percent, limit_name(f.fit.limited_by), registers);
  text += fmt::format("  activity   {}, {}, {}, {}, {} from the device\n", plural(a.barriers, "barrier", "barriers"),
                      plural(a.warp_collectives, "warp collective", "warp collectives"),
                      plural(a.atomics, "atomic", "atomics"), plural(a.fences, "fence", "fences"),
                      plural(a.device_launches, "launch", "launches"));
  text += fmt::format("  threads    {}\n", f.threads_run_by);
  if (f.device_grids != 0) {
    text += fmt::format("  children   {} launched from the device ran, nested {} deep at most\n",
                        plural(f.device_grids, "grid", "grids"), f.deepest);
  }
  report("{}", text);
}

}  // namespace

report_format kernel_report_format() {
  static const report_format format = [] {
    const auto value = env_string("CUSIM_REPORT");
    if (!value || value->empty() || *value == "0") return report_format::off;
    if (*value == "json") return report_format::json;
    if (*value == "summary") return report_format::summary;
    if (*value != "1" && *value != "text") {
      report("CUSIM_REPORT={} is not a report format (1 or text, json, summary, 0): reports are off.", *value);
      return report_format::off;
    }
    return report_format::text;
  }();
  return format;
}

void report_kernel(const grid_job& grid, bool from_host, std::chrono::steady_clock::duration wall,
                   cudaError_t outcome, stack_use stacks) {
  const report_format format = kernel_report_format();
  add_to_summary(grid, from_host, wall, format == report_format::json);
  if (format == report_format::summary) return;
  kernel_facts f = facts_of(grid, wall);
  f.stacks = stacks;
  if (format == report_format::json) write_json(grid, f, outcome);
  else write_text(grid, f, outcome);
}

namespace {
// The worker tells of each grid launched from device code as it completes.
const bool device_grids_reported = [] {
  device_grid_completed = [](const grid_job& grid) {
    if (kernel_report_on()) report_device_grid(grid);
  };
  return true;
}();
}  // namespace

void report_device_grid(const grid_job& grid) {
  if (launch_tree* tree = grid.tree) {
    tree->device_grids.fetch_add(1, std::memory_order_relaxed);
    unsigned int deepest = tree->deepest.load(std::memory_order_relaxed);
    while (grid.depth > deepest && !tree->deepest.compare_exchange_weak(deepest, grid.depth)) {
    }
  }
  add_to_summary(grid, /*from_host=*/false, {}, kernel_report_format() == report_format::json);
}

}  // namespace cusim::detail
