#include "sequence_diff.hpp"

#include <algorithm>

namespace cusim::cc {

std::optional<std::vector<diff_hunk>> diff_sequences(const std::vector<std::uint64_t>& a,
                                                     const std::vector<std::uint64_t>& b, std::size_t max_edits) {
  // What both begin with is equal: the search starts after it. (Not what
  // both end with: trimming that pairs equal elements as late as they can
  // be, where the search pairs them as early; device_pass.cpp repairs the
  // few places where neither is right.)
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  const long n = static_cast<long>(a.size() - prefix), m = static_cast<long>(b.size() - prefix);
  auto equal = [&](long x, long y) { return a[prefix + x] == b[prefix + y]; };

  // Myers: v[k] is the furthest x reached on diagonal k = x - y with d
  // edits; trace[d] keeps v[-d..d] for walking the path back.
  const long cap = static_cast<long>(std::min<std::size_t>(max_edits, static_cast<std::size_t>(n + m)));
  const long offset = cap + 1;
  std::vector<long> v(static_cast<std::size_t>(2 * cap + 3), 0);
  std::vector<std::vector<int>> trace;
  long edits = -1;
  for (long d = 0; d <= cap && edits < 0; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset])) ? v[k + 1 + offset]
                                                                                 : v[k - 1 + offset] + 1;
      long y = x - k;
      while (x < n && y < m && equal(x, y)) ++x, ++y;
      v[k + offset] = x;
      if (x >= n && y >= m) edits = d;
    }
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  if (edits < 0) return std::nullopt;

  // Walk back from (n, m), collecting the equal runs (the snakes).
  struct run {
    long x, y, length;
  };
  std::vector<run> runs;
  long x = n, y = m;
  for (long d = edits; d > 0; --d) {
    const std::vector<int>& previous = trace[static_cast<std::size_t>(d - 1)];
    auto furthest = [&](long k) { return static_cast<long>(previous[static_cast<std::size_t>(k + d - 1)]); };
    const long k = x - y;
    const bool insertion = k == -d || (k != d && furthest(k - 1) < furthest(k + 1));
    const long previous_k = insertion ? k + 1 : k - 1;
    const long px = furthest(previous_k), py = px - previous_k;
    const long sx = insertion ? px : px + 1;  // where the snake after the edit starts
    if (x > sx) runs.push_back({sx, sx - k, x - sx});
    x = px;
    y = py;
  }
  if (x > 0) runs.push_back({0, 0, x});
  std::reverse(runs.begin(), runs.end());

  std::vector<diff_hunk> hunks;
  long ax = 0, by = 0;  // where the previous equal run ended
  runs.push_back({n, m, 0});
  for (const run& r : runs) {
    if (r.x > ax || r.y > by) {
      hunks.push_back({prefix + static_cast<std::size_t>(ax), prefix + static_cast<std::size_t>(r.x),
                       prefix + static_cast<std::size_t>(by), prefix + static_cast<std::size_t>(r.y)});
    }
    ax = r.x + r.length;
    by = r.y + r.length;
  }
  return hunks;
}

}  // namespace cusim::cc
