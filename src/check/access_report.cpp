// The access-pattern check's report, printed at exit: per source line and
// kind of access, the warp requests and their cost against the ideal, worst
// first. Instructions become lines through addr2line (binutils), run once.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "check/access_sites.hpp"
#include "support/diagnostics.hpp"
#include "support/source_lines.hpp"

namespace cusim::detail {

namespace {

struct site_less {
  bool operator()(const site_key& a, const site_key& b) const {
    return std::tie(a.pc, a.space, a.write) < std::tie(b.pc, b.space, b.write);
  }
};
using tallies = std::map<site_key, site_tally, site_less>;

// Each thread tallies on its own; the tallies outlive their threads.
struct all_tallies {
  std::mutex mutex;
  std::vector<std::unique_ptr<tallies>> per_thread;
};
all_tallies& everyone() {
  static all_tallies all;
  return all;
}

void print_report();

// Sums `from` into `into`; the worst request is the one furthest from its ideal.
void add(site_tally& into, const site_tally& from) {
  into.requests += from.requests;
  into.actual += from.actual;
  into.ideal += from.ideal;
  into.partial += from.partial;
  if (std::uint64_t{from.worst_actual} * into.worst_ideal > std::uint64_t{into.worst_actual} * from.worst_ideal) {
    into.worst_actual = from.worst_actual;
    into.worst_ideal = from.worst_ideal;
  }
}

tallies& my_tallies() {
  thread_local tallies* mine = [] {
    all_tallies& all = everyone();
    std::lock_guard lock(all.mutex);
    all.per_thread.push_back(std::make_unique<tallies>());
    return all.per_thread.back().get();
  }();
  return *mine;
}

struct line_tally {
  std::string where;
  memory_space space;
  bool write;
  site_tally tally;
  std::uint64_t excess() const { return tally.actual - tally.ideal; }
};

void print_report() {
  tallies merged;
  {
    all_tallies& all = everyone();
    std::lock_guard lock(all.mutex);
    for (const auto& t : all.per_thread) {
      for (const auto& [site, tally] : *t) add(merged[site], tally);
    }
  }
  std::vector<const void*> pcs;
  for (const auto& [site, tally] : merged) pcs.push_back(site.pc);
  const auto lines = source_lines(pcs);  // instructions just after each access
  // Instructions of one line (an unrolled loop, say) are one entry.
  std::map<std::tuple<std::string, memory_space, bool>, site_tally> by_line;
  for (const auto& [site, tally] : merged) add(by_line[{lines.at(site.pc), site.space, site.write}], tally);
  std::vector<line_tally> rows;
  for (const auto& [key, tally] : by_line) rows.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), tally});
  std::stable_sort(rows.begin(), rows.end(), [](const line_tally& a, const line_tally& b) {
    return a.excess() != b.excess() ? a.excess() > b.excess() : a.where < b.where;
  });
  std::string text = fmt::format(
      "banks: memory accesses of kernels per warp request, by source line, the costliest first. Shared memory: "
      "wavefronts, the passes the 32 banks take (more than ideal: bank conflicts). Global memory: 32-byte sectors "
      "(more than ideal: uncoalesced).\n");
  for (const line_tally& row : rows) {
    const site_tally& t = row.tally;
    const bool shared = row.space == memory_space::shared;
    const double per = double(t.actual) / double(t.requests), ideal = double(t.ideal) / double(t.requests);
    std::string verdict;
    if (t.actual == t.ideal) verdict = shared ? "no bank conflicts" : "coalesced";
    else if (shared) verdict = fmt::format("{:.1f}-way bank conflicts", per / ideal);
    else verdict = fmt::format("{:.0f}% of the bytes fetched used", 100.0 * ideal / per);
    text += fmt::format("  {}: {} {}: {} request{}, {:.1f} {} each (ideal {:.1f}; worst {} against {}): {}{}\n",
                        row.where, shared ? "shared" : "global", row.write ? "store" : "load", t.requests,
                        t.requests == 1 ? "" : "s", per,
                        shared ? "wavefronts" : "sectors", ideal, t.worst_actual, t.worst_ideal, verdict,
                        t.partial != 0 ? fmt::format(" ({} made by part of a warp)", t.partial) : "");
  }
  if (rows.empty()) text += "  no kernel accessed shared memory or memory from cudaMalloc and the like.\n";
  report("{}", text);
}

// The report is printed at exit whether or not a kernel ran.
const bool reporting = [] {
  everyone();  // made before the handler is registered: destroyed after it runs
  return std::atexit(print_report) == 0;
}();

}  // namespace

void tally_request(const site_key& site, unsigned int actual, unsigned int ideal, bool partial) {
  add(my_tallies()[site], site_tally{1, actual, ideal, actual, ideal, partial ? 1u : 0u});
}

}  // namespace cusim::detail
