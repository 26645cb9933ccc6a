#include "api/kernel_summary.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "platform/console.hpp"
#include "sched/grid.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {

struct kernel_totals {
  std::string name;
  std::chrono::steady_clock::time_point first_made;  // the table's order: as first launched
  std::uint64_t host_grids = 0, device_grids = 0, blocks = 0, threads = 0;
  block_activity activity;
  double host_wall_ms = 0;
};

struct summary {
  std::mutex mutex;
  std::vector<kernel_totals> kernels;
  bool json = false;
};

summary& the_summary() {
  static summary s;
  return s;
}

void write_json(const std::vector<kernel_totals>& kernels) {
  std::string line = "{\"summary\": [";
  for (const kernel_totals& k : kernels) {
    const block_activity& a = k.activity;
    line += fmt::format(
        "{}{{\"kernel\": \"{}\", \"host_grids\": {}, \"device_grids\": {}, \"blocks\": {}, \"threads\": {}, "
        "\"barriers\": {}, \"warp_collectives\": {}, \"atomics\": {}, \"fences\": {}, \"device_launches\": {}, "
        "\"host_wall_ms\": {:.3f}}}",
        &k == kernels.data() ? "" : ", ", k.name, k.host_grids, k.device_grids, k.blocks, k.threads, a.barriers,
        a.warp_collectives, a.atomics, a.fences, a.device_launches, k.host_wall_ms);
  }
  line += "]}\n";
  platform::write_to_stderr(line);
}

// A table with a column per count, each as wide as its widest entry.
void write_text(const std::vector<kernel_totals>& kernels) {
  const std::vector<std::string> headings = {"kernel",   "grids", "from device", "blocks",  "threads", "barriers",
                                             "warp coll.", "atomics", "fences", "launches", "host ms"};
  std::vector<std::vector<std::string>> rows;
  for (const kernel_totals& k : kernels) {
    const block_activity& a = k.activity;
    rows.push_back({k.name, fmt::format("{}", k.host_grids + k.device_grids), fmt::format("{}", k.device_grids),
                    fmt::format("{}", k.blocks), fmt::format("{}", k.threads), fmt::format("{}", a.barriers),
                    fmt::format("{}", a.warp_collectives), fmt::format("{}", a.atomics), fmt::format("{}", a.fences),
                    fmt::format("{}", a.device_launches),
                    k.host_grids != 0 ? fmt::format("{:.3f}", k.host_wall_ms) : std::string("-")});
  }
  std::vector<std::size_t> widths(headings.size());
  for (std::size_t c = 0; c < headings.size(); ++c) {
    widths[c] = headings[c].size();
    for (const auto& row : rows) widths[c] = std::max(widths[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text = " ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      text += c == 0 ? fmt::format(" {:<{}}", cells[c], widths[c]) : fmt::format("  {:>{}}", cells[c], widths[c]);
    }
    return text + "\n";
  };
  std::string text = fmt::format(
      "report: summary of {} kernel{} (grids: all that ran, launched from the host or the device; launches: those "
      "made from the device by the kernel's threads; host ms: wall time of the launches from the host)\n",
      kernels.size(), kernels.size() == 1 ? "" : "s");
  text += line(headings);
  for (const auto& row : rows) text += line(row);
  report("{}", text);
}

void write_summary() {
  summary& s = the_summary();
  std::lock_guard lock(s.mutex);
  if (s.kernels.empty()) return;
  std::stable_sort(s.kernels.begin(), s.kernels.end(),
                   [](const kernel_totals& a, const kernel_totals& b) { return a.first_made < b.first_made; });
  if (s.json) write_json(s.kernels);
  else write_text(s.kernels);
}

}  // namespace

void add_to_summary(const grid_job& grid, bool from_host, std::chrono::steady_clock::duration wall, bool json) {
  summary& s = the_summary();
  std::lock_guard lock(s.mutex);
  if (s.kernels.empty()) {
    s.json = json;
    std::atexit(write_summary);  // after the_summary() was made: runs before it is destroyed
  }
  const std::string name = grid.kernel_name();
  auto it = std::find_if(s.kernels.begin(), s.kernels.end(), [&](const kernel_totals& k) { return k.name == name; });
  if (it == s.kernels.end()) {
    it = s.kernels.insert(s.kernels.end(), kernel_totals{});
    it->name = name;
    it->first_made = grid.made();
  }
  it->first_made = std::min(it->first_made, grid.made());
  (from_host ? it->host_grids : it->device_grids) += 1;
  it->blocks += grid.block_count();
  it->threads += grid.block_count() * grid.threads_per_block();
  it->activity += grid.activity();
  it->host_wall_ms += std::chrono::duration<double, std::milli>(wall).count();
}

}  // namespace cusim::detail
