#include "pass_alignment.hpp"

#include <algorithm>
#include <functional>
#include <string_view>

namespace cusim::cc {
namespace {

constexpr std::size_t npos = preprocessed::npos;

// Lines that differ are aligned token by token up to this many differing
// tokens (the search's memory grows with its square); past it, as wholes.
constexpr std::size_t max_refined_tokens = 2000;

bool is_bracket(const preprocessed& p, std::size_t t) {
  const char c = p.text()[p.tokens()[t].begin];
  return p.tokens()[t].kind == token_kind::punctuation &&
         (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}');
}

class aligner {
 public:
  aligner(const preprocessed& host, const preprocessed& device) : host_(host), device_(device) {}

  std::optional<pass_alignment> run(std::size_t max_differing_lines) {
    const auto host_lines = line_hashes(host_), device_lines = line_hashes(device_);
    auto hunks = diff_sequences(host_lines, device_lines, max_differing_lines);
    if (!hunks) return std::nullopt;
    slide_all(*hunks);
    repair(*hunks, host_lines, device_lines);
    for (std::size_t i = 0; i < hunks->size(); ++i) {
      for (const diff_hunk& tokens : refine((*hunks)[i]))
        result_.hunks.push_back({tokens, i, (*hunks)[i].a_begin == (*hunks)[i].a_end});
    }
    map_equal_tokens();
    return std::move(result_);
  }

 private:
  static std::vector<std::uint64_t> line_hashes(const preprocessed& p) {
    std::vector<std::uint64_t> hashes;
    hashes.reserve(p.lines().size());
    for (const pp_line& l : p.lines()) hashes.push_back(l.hash);
    return hashes;
  }
  static std::vector<std::uint64_t> token_hashes(const preprocessed& p, std::size_t first, std::size_t end) {
    std::vector<std::uint64_t> hashes;
    for (std::size_t t = first; t < end; ++t) hashes.push_back(std::hash<std::string_view>{}(p.spelling(t)));
    return hashes;
  }
  std::size_t first_token(const preprocessed& p, std::size_t line) const {
    return line < p.lines().size() ? p.lines()[line].first_token : p.tokens().size();
  }
  static std::size_t brace_depth(const preprocessed& p, std::size_t token) {
    std::size_t depth = 0;
    for (std::size_t b = token < p.tokens().size() ? p.enclosing_brace(token) : npos; b != npos;
         b = p.enclosing_brace(b))
      ++depth;
    return depth;
  }

  void slide_all(std::vector<diff_hunk>& hunks) const {
    for (std::size_t i = 0; i < hunks.size(); ++i) {
      slide(hunks, i);
      // A slide can bring a run against the one before it, with no pair
      // left between them: a header only the device pass includes, whose
      // `namespace lib { namespace system {` is read as `namespace lib {`
      // both have, two lines added, `namespace detail {` both have, and the
      // rest added. They are one run, which may slide to be whole.
      if (i > 0 && hunks[i - 1].a_end == hunks[i].a_begin && hunks[i - 1].b_end == hunks[i].b_begin) {
        hunks[i - 1].a_end = hunks[i].a_end;
        hunks[i - 1].b_end = hunks[i].b_end;
        hunks.erase(hunks.begin() + static_cast<std::ptrdiff_t>(i));
        slide(hunks, --i);
      }
    }
  }
  void slide(std::vector<diff_hunk>& hunks, std::size_t i) const {
    const diff_hunk floor = i == 0 ? diff_hunk{0, 0, 0, 0} : hunks[i - 1];
    const diff_hunk ceiling =
        i + 1 < hunks.size() ? hunks[i + 1] : diff_hunk{host_.lines().size(), 0, device_.lines().size(), 0};
    slide_to_top_level(hunks[i], floor.a_end, floor.b_end, ceiling.a_begin, ceiling.b_begin);
  }
  // Whether a difference is not whole on both sides.
  bool broken(const diff_hunk& h) const {
    return !whole(host_, first_token(host_, h.a_begin), first_token(host_, h.a_end)) ||
           !whole(device_, first_token(device_, h.b_begin), first_token(device_, h.b_end));
  }

  // The shortest edit pairs equal lines as early as it can; where that
  // leaves a difference that is not whole (a function the device pass adds
  // after a "}" both have, read as added from inside the function before),
  // the lines from a few differences before it to a few after are paired
  // again: as many as can be while every difference between them is whole.
  void repair(std::vector<diff_hunk>& hunks, const std::vector<std::uint64_t>& host_lines,
              const std::vector<std::uint64_t>& device_lines) const {
    constexpr std::size_t reach = 3, max_window_lines = 96;
    for (std::size_t i = 0; i < hunks.size();) {
      if (!broken(hunks[i])) {
        ++i;
        continue;
      }
      std::size_t next = i + 1;
      for (std::size_t r = 1; r <= reach; ++r) {
        const std::size_t first = i >= r ? i - r : 0, end = std::min(hunks.size(), i + 1 + r);
        const diff_hunk window{hunks[first].a_begin, hunks[end - 1].a_end, hunks[first].b_begin, hunks[end - 1].b_end};
        if (window.a_end - window.a_begin > max_window_lines || window.b_end - window.b_begin > max_window_lines) break;
        auto local = whole_alignment(window, host_lines, device_lines);
        if (!local) continue;
        hunks.erase(hunks.begin() + static_cast<std::ptrdiff_t>(first), hunks.begin() + static_cast<std::ptrdiff_t>(end));
        hunks.insert(hunks.begin() + static_cast<std::ptrdiff_t>(first), local->begin(), local->end());
        next = first + local->size();
        break;
      }
      i = next;
    }
  }

  // Pairs host lines [w.a_begin, w.a_end) with device lines [w.b_begin,
  // w.b_end), in order, as many as possible, such that what lies between
  // pairs is whole on both sides; the differences that leaves, or nothing
  // when no such pairing exists. (Dynamic programming over the window.)
  std::optional<std::vector<diff_hunk>> whole_alignment(const diff_hunk& w, const std::vector<std::uint64_t>& host_lines,
                                                        const std::vector<std::uint64_t>& device_lines) const {
    const std::size_t h = w.a_end - w.a_begin, d = w.b_end - w.b_begin;
    const auto host_whole = whole_ranges(host_, w.a_begin, h), device_whole = whole_ranges(device_, w.b_begin, d);
    // best[i][j]: most pairs with host lines before i and device lines
    // before j used, the last pair (if any) being (i - 1, j - 1).
    std::vector<int> best((h + 1) * (d + 1), -1);
    std::vector<std::size_t> from((h + 1) * (d + 1), npos);
    auto at = [&](std::size_t i, std::size_t j) { return i * (d + 1) + j; };
    best[at(0, 0)] = 0;
    for (std::size_t i = 0; i <= h; ++i) {
      for (std::size_t j = 0; j <= d; ++j) {
        if (best[at(i, j)] < 0) continue;
        for (std::size_t i2 = i; i2 < h; ++i2) {
          if (!host_whole[i * (h + 1) + i2]) continue;
          for (std::size_t j2 = j; j2 < d; ++j2) {
            if (host_lines[w.a_begin + i2] != device_lines[w.b_begin + j2] || !device_whole[j * (d + 1) + j2]) continue;
            if (best[at(i, j)] + 1 > best[at(i2 + 1, j2 + 1)]) {
              best[at(i2 + 1, j2 + 1)] = best[at(i, j)] + 1;
              from[at(i2 + 1, j2 + 1)] = at(i, j);
            }
          }
        }
      }
    }
    std::size_t end = npos;
    for (std::size_t i = 0; i <= h; ++i) {
      for (std::size_t j = 0; j <= d; ++j) {
        if (best[at(i, j)] < 0 || !host_whole[i * (h + 1) + h] || !device_whole[j * (d + 1) + d]) continue;
        if (end == npos || best[at(i, j)] > best[end]) end = at(i, j);
      }
    }
    if (end == npos) return std::nullopt;
    std::vector<diff_hunk> hunks;
    std::size_t next_i = h, next_j = d;  // where the gap after the current pair ends
    for (std::size_t cell = end;; cell = from[cell]) {
      const std::size_t i = cell / (d + 1), j = cell % (d + 1);
      if (i < next_i || j < next_j) hunks.push_back({w.a_begin + i, w.a_begin + next_i, w.b_begin + j, w.b_begin + next_j});
      if (cell == at(0, 0)) break;
      next_i = i - 1;
      next_j = j - 1;
    }
    std::reverse(hunks.begin(), hunks.end());
    return hunks;
  }
  // whole[i * (n + 1) + k]: lines [i, k) of the window starting at `first`
  // hold whole bracket pairs only.
  static std::vector<bool> whole_ranges(const preprocessed& p, std::size_t first, std::size_t n) {
    std::vector<bool> whole((n + 1) * (n + 1), false);
    for (std::size_t i = 0; i <= n; ++i) {
      const std::size_t start = first + i < p.lines().size() ? p.lines()[first + i].first_token : p.tokens().size();
      std::size_t open = 0;  // brackets in the range whose match is outside it
      whole[i * (n + 1) + i] = true;
      for (std::size_t k = i; k < n; ++k) {
        const pp_line& line = p.lines()[first + k];
        for (std::size_t t = line.first_token; t < line.end_token; ++t) {
          if (!is_bracket(p, t)) continue;
          const std::size_t m = p.match(t);
          if (m != npos && m < t && m >= start) --open;
          else ++open;
        }
        whole[i * (n + 1) + k + 1] = open == 0;
      }
    }
    return whole;
  }

  // A run only one pass has can often be placed several ways among equal
  // lines ("}\nvoid g() {" could start the run or end it). Pick the place
  // where it is whole (balanced brackets) and least nested, as it was written.
  void slide_to_top_level(diff_hunk& h, std::size_t a_floor, std::size_t b_floor, std::size_t a_ceiling,
                          std::size_t b_ceiling) const {
    const bool insertion = h.a_begin == h.a_end, deletion = h.b_begin == h.b_end;
    if (insertion == deletion) return;
    const preprocessed& with = insertion ? device_ : host_;  // the pass that has the run
    const preprocessed& without = insertion ? host_ : device_;
    std::size_t &run_begin = insertion ? h.b_begin : h.a_begin, &run_end = insertion ? h.b_end : h.a_end;
    std::size_t &at = insertion ? h.a_begin : h.b_begin, &at_end = insertion ? h.a_end : h.b_end;
    const std::size_t run_floor = insertion ? b_floor : a_floor, at_floor = insertion ? a_floor : b_floor;
    const std::size_t run_ceiling = insertion ? b_ceiling : a_ceiling, at_ceiling = insertion ? a_ceiling : b_ceiling;
    auto same = [&](std::size_t x, std::size_t y) { return with.lines()[x].hash == with.lines()[y].hash; };
    while (run_begin > run_floor && at > at_floor && same(run_begin - 1, run_end - 1)) --run_begin, --run_end, --at;
    std::size_t best_shift = 0, best_depth = npos, shift = 0;
    for (;;) {
      const std::size_t first = first_token(with, run_begin + shift), end = first_token(with, run_end + shift);
      if (whole(with, first, end)) {
        const std::size_t depth = brace_depth(without, first_token(without, at + shift));
        if (depth < best_depth) best_depth = depth, best_shift = shift;
      }
      if (run_end + shift >= run_ceiling || at + shift >= at_ceiling || !same(run_begin + shift, run_end + shift)) break;
      ++shift;
    }
    run_begin += best_shift;
    run_end += best_shift;
    at += best_shift;
    at_end = at;
  }

  // Lines that differ often differ in a few tokens (a macro that expands
  // differently): the tokens around those stay aligned.
  std::vector<diff_hunk> refine(const diff_hunk& lines) const {
    const diff_hunk tokens{first_token(host_, lines.a_begin), first_token(host_, lines.a_end),
                           first_token(device_, lines.b_begin), first_token(device_, lines.b_end)};
    if (tokens.a_begin == tokens.a_end || tokens.b_begin == tokens.b_end) return {tokens};
    auto inner = diff_sequences(token_hashes(host_, tokens.a_begin, tokens.a_end),
                                token_hashes(device_, tokens.b_begin, tokens.b_end), max_refined_tokens);
    if (!inner) return {tokens};  // too different to be worth aligning inside
    for (diff_hunk& h : *inner) {
      h.a_begin += tokens.a_begin, h.a_end += tokens.a_begin;
      h.b_begin += tokens.b_begin, h.b_end += tokens.b_begin;
    }
    return *inner;
  }

  void map_equal_tokens() {
    auto& device_token_ = result_.device_token;
    device_token_.assign(host_.tokens().size(), npos);
    std::size_t a = 0, b = 0;
    auto map_until = [&](std::size_t a_end) {
      for (; a < a_end; ++a, ++b) device_token_[a] = b;
    };
    for (const token_hunk& t : result_.hunks) {
      map_until(t.tokens.a_begin);
      a = t.tokens.a_end;
      b = t.tokens.b_end;
    }
    map_until(host_.tokens().size());
  }

  const preprocessed& host_;
  const preprocessed& device_;
  pass_alignment result_;
};

}  // namespace

bool whole(const preprocessed& p, std::size_t first, std::size_t end) {
  for (std::size_t t = first; t < end; ++t) {
    const std::size_t m = p.match(t);
    if (is_bracket(p, t) && (m == npos || m < first || m >= end)) return false;
  }
  return true;
}

std::optional<pass_alignment> align_passes(const preprocessed& host, const preprocessed& device,
                                           std::size_t max_differing_lines) {
  return aligner(host, device).run(max_differing_lines);
}

}  // namespace cusim::cc
