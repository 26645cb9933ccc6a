#include "device_pass.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "preprocessed.hpp"
#include "sequence_diff.hpp"

namespace cusim::cc {
namespace {

constexpr std::size_t npos = preprocessed::npos;

// More differing lines than this between the passes is not conditional
// code but something else (a header that differs wholesale): cusim-cc
// says so and keeps the host pass.
constexpr std::size_t max_differing_lines = 4000;
// Lines that differ are aligned token by token up to this many differing
// tokens (the search's memory grows with its square); past it, as wholes.
constexpr std::size_t max_refined_tokens = 2000;

// Which pass a function body is taken from.
enum class body_pass { host, device, both };

// What precedes a '{': a function's or lambda's declaration, with its
// execution-space markers (cuda_runtime.h turns __global__, __device__ and
// __host__ into them for cusim-cc), or anything else.
struct body_head {
  bool function = false, lambda = false;
  bool global = false, device = false, host = false, constexpr_ = false;
};

// Where a device-pass-only run of tokens goes into the host pass.
struct insertion {
  std::size_t device_first, device_end;
};
struct body_choice {
  std::size_t device_open;
  body_pass pass;
};
// A difference in tokens, and the difference in lines it was found in.
struct token_hunk {
  diff_hunk tokens;  // a: host tokens, b: device tokens
  std::size_t line_hunk;
  bool lines_inserted;  // the lines are the device pass's alone
};

class merger {
 public:
  merger(std::string_view host, std::string_view device) : host_(host), device_(device) {}

  merged_passes run() {
    // Of the two ways to pair equal lines, the one whose differences are
    // whole (balanced brackets) places them where they were written.
    const auto host_lines = line_hashes(host_), device_lines = line_hashes(device_);
    auto hunks = diff_sequences(host_lines, device_lines, max_differing_lines);
    if (hunks) {
      slide_all(*hunks);
      repair(*hunks, host_lines, device_lines);
    }
    if (!hunks) {
      warn_at(0, "the host and device passes (__CUDA_ARCH__ defined) differ in more than " +
                     std::to_string(max_differing_lines) + " lines; the host pass is compiled, as if __CUDA_ARCH__ "
                     "were undefined everywhere");
      return {std::string(host_.text()), std::move(warnings_)};
    }
    for (std::size_t i = 0; i < hunks->size(); ++i) {
      for (const diff_hunk& tokens : refine((*hunks)[i])) token_hunks_.push_back({tokens, i, (*hunks)[i].a_begin == (*hunks)[i].a_end});
    }
    map_equal_tokens();
    for (const token_hunk& h : token_hunks_) place(h);
    return {emit(), std::move(warnings_)};
  }

 private:
  // --- Aligning the passes -------------------------------------------------

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
  // Whether every bracket among tokens [first, end) is matched among them.
  static bool balanced(const preprocessed& p, std::size_t first, std::size_t end) {
    for (std::size_t t = first; t < end; ++t) {
      const std::size_t m = p.match(t);
      const char c = p.text()[p.tokens()[t].begin];
      const bool bracket = p.tokens()[t].kind == token_kind::punctuation &&
                           (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}');
      if (bracket && (m == npos || m < first || m >= end)) return false;
    }
    return true;
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
      const diff_hunk floor = i == 0 ? diff_hunk{0, 0, 0, 0} : hunks[i - 1];
      const diff_hunk ceiling =
          i + 1 < hunks.size() ? hunks[i + 1] : diff_hunk{host_.lines().size(), 0, device_.lines().size(), 0};
      slide_to_top_level(hunks[i], floor.a_end, floor.b_end, ceiling.a_begin, ceiling.b_begin);
    }
  }
  // Whether a difference is not whole on both sides.
  bool broken(const diff_hunk& h) const {
    return !balanced(host_, first_token(host_, h.a_begin), first_token(host_, h.a_end)) ||
           !balanced(device_, first_token(device_, h.b_begin), first_token(device_, h.b_end));
  }
  std::size_t broken(const std::vector<diff_hunk>& hunks, std::size_t first, std::size_t end) const {
    std::size_t count = 0;
    for (std::size_t i = first; i < end; ++i) count += broken(hunks[i]);
    return count;
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
          const char c = p.text()[p.tokens()[t].begin];
          if (p.tokens()[t].kind != token_kind::punctuation || (c != '(' && c != ')' && c != '[' && c != ']' && c != '{' && c != '}')) continue;
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
      if (balanced(with, first, end)) {
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
    device_token_.assign(host_.tokens().size(), npos);
    std::size_t a = 0, b = 0;
    auto map_until = [&](std::size_t a_end) {
      for (; a < a_end; ++a, ++b) device_token_[a] = b;
    };
    for (const token_hunk& t : token_hunks_) {
      map_until(t.tokens.a_begin);
      a = t.tokens.a_end;
      b = t.tokens.b_end;
    }
    map_until(host_.tokens().size());
  }

  // --- Where a difference lies ---------------------------------------------

  std::string_view word(std::size_t t) const { return host_.spelling(t); }
  bool is_arrow_at(std::size_t t) const {  // tokens t-1, t spell "->", not in `operator->`
    return t > 0 && word(t) == ">" && word(t - 1) == "-" && host_.tokens()[t].begin == host_.tokens()[t - 1].end &&
           !(t >= 2 && word(t - 2) == "operator");
  }
  // `]` that closes `operator[]`, not a lambda's captures.
  bool closes_subscript_operator(std::size_t t) const {
    const std::size_t open = host_.match(t);
    return open != npos && open > 0 && word(open - 1) == "operator";
  }

  // Reads back from a '{' to learn what it opens.
  body_head head_of(std::size_t open) const {
    body_head head;
    if (open == 0) return head;
    std::size_t p = open - 1;
    // A trailing return type: `) -> T {`.
    for (std::size_t t = p, steps = 0; t > 0 && steps < 64; --t, ++steps) {
      const std::string_view w = word(t);
      if (w == ";" || w == "{" || w == "}") break;
      if ((w == ")" || w == "]") && host_.match(t) != npos && host_.match(t) < t) {
        t = host_.match(t);
        continue;
      }
      if (t >= 2 && is_arrow_at(t)) {
        p = t - 2;
        break;
      }
    }
    // Trailing specifiers: const, noexcept(...), __attribute__((...)), ...
    static const std::set<std::string_view> specifiers{"const",   "volatile", "noexcept", "override", "final",
                                                       "mutable", "&",        "&&",       "constexpr"};
    while (p > 0) {
      if (specifiers.count(word(p))) {
        --p;
      } else if (word(p) == ")" && host_.match(p) != npos && host_.match(p) >= 2 &&
                 (word(host_.match(p) - 1) == "noexcept" || word(host_.match(p) - 1) == "throw" ||
                  word(host_.match(p) - 1) == "__attribute__")) {
        p = host_.match(p) - 2;
      } else {
        break;
      }
    }
    // A constructor's member initializers in braces: `) : a{x}, b{y} {`
    // (those in parentheses read as a call, which ends the same way).
    while (word(p) == "}" && host_.match(p) != npos && host_.match(p) >= 3 &&
           host_.tokens()[host_.match(p) - 1].kind == token_kind::identifier &&
           (word(host_.match(p) - 2) == "," || word(host_.match(p) - 2) == ":"))
      p = host_.match(p) - 3;
    std::size_t declaration_end = p;
    if (word(p) == "]" && !closes_subscript_operator(p)) {  // [captures] { ... }
      head.lambda = true;
    } else if (word(p) == ")" && host_.match(p) != npos && host_.match(p) > 0) {
      const std::size_t before = host_.match(p) - 1;
      const std::string_view w = word(before);
      if (w == "if" || w == "for" || w == "while" || w == "switch" || w == "catch" || w == "constexpr") return head;
      head.lambda = w == "]" && !closes_subscript_operator(before);
      declaration_end = before;
    } else {
      return head;  // a class, namespace, initializer or plain block
    }
    head.function = true;
    // The declaration back to the previous ';', '{' or '}' (for a lambda,
    // back to its '['), for the markers.
    for (std::size_t t = declaration_end + 1, steps = 0; t-- > 0 && steps < 1024; ++steps) {
      const std::string_view w = word(t);
      if ((w == ")" || w == "]") && host_.match(t) != npos && host_.match(t) < t) {
        if (head.lambda && w == "]") break;
        t = host_.match(t);
        continue;
      }
      if (w == ";" || w == "{" || w == "}") break;
      head.global |= w == "__cusim_global__";
      head.device |= w == "__cusim_device__";
      head.host |= w == "__cusim_host__";
      head.constexpr_ |= w == "constexpr" || w == "consteval";
    }
    return head;
  }

  // The function body that holds host tokens [first, last], and the pass it
  // is taken from; npos when they lie outside every function body.
  std::pair<std::size_t, body_pass> body_around(std::size_t first, std::size_t last) const {
    std::pair<std::size_t, body_pass> host_function{npos, body_pass::host};
    const std::size_t start = first < host_.tokens().size() ? host_.enclosing_brace(first) : npos;
    for (std::size_t b = start; b != npos; b = host_.enclosing_brace(b)) {
      if (host_.match(b) == npos || host_.match(b) < last) continue;
      const body_head head = head_of(b);
      if (!head.function) continue;
      if (head.global || head.device) return {b, head.host ? body_pass::both : body_pass::device};
      // An unmarked lambda runs where the function around it does; an
      // unmarked function is host code unless it is a member of a class
      // local to device code (so keep looking outwards).
      if (!head.lambda && host_function.first == npos)
        host_function = {b, head.constexpr_ && !head.host ? body_pass::both : body_pass::host};
    }
    return host_function;
  }

  void place(const token_hunk& t) {
    const diff_hunk& h = t.tokens;
    const std::size_t first = h.a_begin, last = h.a_end > h.a_begin ? h.a_end - 1 : h.a_begin;
    const auto [body, pass] = body_around(first, last);
    if (body != npos) {
      if (pass != body_pass::host && !bodies_.count(body)) choose_body(t, body, pass);
      return;
    }
    // Outside function bodies only whole lines the device pass adds are
    // added: a declaration the host pass lacks. Tokens added inside a line
    // that also differs otherwise would make a declaration neither pass has.
    if (t.lines_inserted && balanced(device_, h.b_begin, h.b_end)) {
      insertions_[first].push_back({h.b_begin, h.b_end});
    } else if (t.lines_inserted) {
      warn_once(t, "declarations only the device pass has (__CUDA_ARCH__ defined) could not be placed; they are "
                   "left out");
    } else if (h.b_begin != h.b_end) {
      warn_once(t, "declarations outside function bodies differ between the host and device passes "
                   "(__CUDA_ARCH__); the host pass's are compiled");
    }
  }

  void choose_body(const token_hunk& t, std::size_t body, body_pass pass) {
    const std::size_t close = host_.match(body);
    const std::size_t device_open = device_token_[body], device_close = device_token_[close];
    if (device_open == npos || device_close == npos || device_.match(device_open) != device_close) {
      warn_once(t, "this function's body differs between the host and device passes (__CUDA_ARCH__) in a way "
                   "cusim-cc cannot follow (its braces differ); the host pass's body is compiled");
      return;
    }
    // Inline PTX cannot run here (yet): a body whose device version is
    // assembly and whose host version is not keeps the host's, as the
    // portable fallback such code usually has.
    if (holds_asm(device_, device_open, device_close) && !holds_asm(host_, body, close)) {
      warn_once(t, "the device pass's body of this function uses inline PTX (asm), which cusim does not translate; "
                   "the host pass's body is compiled");
      return;
    }
    bodies_[body] = {device_open, pass};
  }
  static bool holds_asm(const preprocessed& p, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i <= last; ++i) {
      if (p.tokens()[i].kind != token_kind::identifier) continue;
      const std::string_view w = p.spelling(i);
      if (w == "asm" || w == "__asm__" || w == "__asm") return true;
    }
    return false;
  }

  void warn_once(const token_hunk& t, const std::string& message) {
    if (warned_line_hunks_.insert(t.line_hunk).second) warn_at(t.tokens.a_begin, message);
  }

  void warn_at(std::size_t host_token, const std::string& message) {
    std::string where = "cusim-cc";
    if (host_token < host_.tokens().size()) {
      const pp_line& line = host_.lines()[host_.tokens()[host_token].line];
      std::string file = host_.files()[line.file];
      if (file.size() >= 2) file = file.substr(1, file.size() - 2);
      where = file + ':' + std::to_string(line.source_line);
    }
    warnings_.push_back(where + ": warning: " + message);
  }

  // --- Writing the merged text ---------------------------------------------

  std::size_t host_offset(std::size_t token) const {
    return token < host_.tokens().size() ? host_.tokens()[token].begin : host_.text().size();
  }
  void copy_host_to(std::size_t offset) {
    out_.append(host_.text().substr(cursor_, offset - cursor_));
    cursor_ = offset;
  }
  void append_device(std::size_t first, std::size_t end) {
    out_ += device_.marker_for(first);
    const std::size_t from = device_.tokens()[first].begin, to = device_.tokens()[end - 1].end;
    out_.append(device_.text().substr(from, to - from));
  }
  // Copies the host pass up to token `limit`, replacing the bodies chosen
  // and adding the insertions on the way.
  void emit_until(std::size_t limit) {
    for (;;) {
      const auto body = bodies_.lower_bound(cursor_token_);
      const auto insert = insertions_.lower_bound(cursor_token_);
      const std::size_t next = std::min(body == bodies_.end() ? npos : body->first,
                                        insert == insertions_.end() ? npos : insert->first);
      if (next == npos || next >= limit) break;
      copy_host_to(host_offset(next));
      if (insert != insertions_.end() && insert->first == next) {
        for (const insertion& i : insert->second) append_device(i.device_first, i.device_end);
        if (next < host_.tokens().size()) out_ += host_.marker_for(next);
        cursor_token_ = next + 1;  // the body that may open there comes next
        if (body == bodies_.end() || body->first != next) continue;
      }
      const std::size_t close = host_.match(next);
      const std::size_t device_open = body->second.device_open;
      if (body->second.pass == body_pass::both) {
        out_ += "{ if (::cusim::detail::in_device_code())";
        append_device(device_open, device_.match(device_open) + 1);
        out_ += " else" + host_.marker_for(next);
        cursor_token_ = next + 1;
        emit_until(close);
        copy_host_to(host_.tokens()[close].end);
        out_ += " }";
      } else {
        append_device(device_open, device_.match(device_open) + 1);
        out_ += host_.marker_for(close);
        cursor_ = host_.tokens()[close].end;
      }
      cursor_token_ = close + 1;
    }
  }
  std::string emit() {
    emit_until(npos);
    copy_host_to(host_.text().size());
    return std::move(out_);
  }

  preprocessed host_, device_;
  std::vector<token_hunk> token_hunks_;
  std::set<std::size_t> warned_line_hunks_;  // one warning per difference in lines
  std::vector<std::size_t> device_token_;  // host token -> the same device token, or npos
  std::map<std::size_t, body_choice> bodies_;                 // by the host body's '{'
  std::map<std::size_t, std::vector<insertion>> insertions_;  // before this host token
  std::vector<std::string> warnings_;
  std::string out_;
  std::size_t cursor_ = 0, cursor_token_ = 0;
};

}  // namespace

merged_passes merge_device_pass(std::string_view host, std::string_view device) {
  return merger(host, device).run();
}

bool mentions_cuda_arch(std::string_view preprocessed_text, const std::vector<std::string>& own_dirs) {
  std::set<std::string> files;
  for (std::size_t at = 0; at < preprocessed_text.size();) {
    std::size_t end = preprocessed_text.find('\n', at);
    if (end == std::string_view::npos) end = preprocessed_text.size();
    const std::string_view line = preprocessed_text.substr(at, end - at);
    if (line.size() > 2 && line[0] == '#' && line[1] == ' ') {
      const std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string_view::npos && q2 > q1 + 1 && line[q1 + 1] != '<')
        files.emplace(line.substr(q1 + 1, q2 - q1 - 1));
    }
    at = end + 1;
  }
  for (const std::string& file : files) {
    const bool own = std::any_of(own_dirs.begin(), own_dirs.end(), [&](const std::string& dir) {
      return file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 && file[dir.size()] == '/';
    });
    if (own) continue;
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find("__CUDA_ARCH__") != std::string::npos) return true;
  }
  return false;
}

}  // namespace cusim::cc
