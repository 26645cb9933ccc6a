#include "device_pass.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "function_heads.hpp"
#include "pass_alignment.hpp"
#include "preprocessed.hpp"

namespace cusim::cc {
namespace {

constexpr std::size_t npos = preprocessed::npos;

// More differing lines than this between the passes is not conditional
// code but something else (a header that differs wholesale): cusim-cc
// says so and keeps the host pass.
constexpr std::size_t max_differing_lines = 4000;
// Where a device-pass-only run of tokens goes into the host pass.
struct insertion {
  std::size_t device_first, device_end;
};
// A function body taken from the device pass, from its '{' in each pass;
// or, for a __device__ function whose head differs too (parameters named
// otherwise under #if __CUDA_ARCH__), the whole definition, from the first
// token of its head (host_first, device_first).
struct body_choice {
  std::size_t host_open, device_open;
  body_pass pass;
  std::size_t host_first, device_first;
};

class merger {
 public:
  merger(std::string_view host, std::string_view device) : host_(host), device_(device) {}

  merged_passes run() {
    auto alignment = align_passes(host_, device_, max_differing_lines);
    if (!alignment) {
      warn_at(0, "the host and device passes (__CUDA_ARCH__ defined) differ in more than " +
                     std::to_string(max_differing_lines) + " lines; the host pass is compiled, as if __CUDA_ARCH__ "
                     "were undefined everywhere");
      return {std::string(host_.text()), std::move(warnings_)};
    }
    device_token_ = std::move(alignment->device_token);
    for (const token_hunk& h : alignment->hunks) place(h);
    return {emit(), std::move(warnings_)};
  }

 private:
  // --- Where a difference goes ----------------------------------------------

  void place(const token_hunk& t) {
    const diff_hunk& h = t.tokens;
    const std::size_t first = h.a_begin, last = h.a_end > h.a_begin ? h.a_end - 1 : h.a_begin;
    auto [body, pass] = enclosing_function_body(host_, first, last);
    if (body == npos && h.a_end > h.a_begin) {
      // Host tokens that differ in a function's head: the function's, with
      // its body. (Tokens only the device pass has go in before the host
      // token at `first`, below.)
      body = body_after_head(last);
      if (body != npos) pass = enclosing_function_body(host_, body + 1, body + 1).second;
    }
    if (body != npos) {
      if (pass != body_pass::host && !chosen_.count(body)) choose_body(t, body, pass);
      return;
    }
    // Outside function bodies only whole lines the device pass adds are
    // added: a declaration the host pass lacks. Tokens added inside a line
    // that also differs otherwise would make a declaration neither pass has.
    if (t.lines_inserted && whole(device_, h.b_begin, h.b_end)) {
      insertions_[first].push_back({h.b_begin, h.b_end});
    } else if (t.lines_inserted) {
      warn_once(t, "declarations only the device pass has (__CUDA_ARCH__ defined) could not be placed; they are "
                   "left out");
    } else if (h.b_begin != h.b_end) {
      warn_once(t, "declarations outside function bodies differ between the host and device passes "
                   "(__CUDA_ARCH__); the host pass's are compiled");
    }
  }

  // The '{' of the function body whose head holds host token `last` (the
  // next '{', ';' or '}' after it is that '{', and opens a function body);
  // npos where there is none.
  std::size_t body_after_head(std::size_t last) const {
    for (std::size_t i = last; i < host_.tokens().size(); ++i) {
      if (host_.is(i, ";") || host_.is(i, "}")) return npos;
      if (!host_.is(i, "{")) continue;
      return enclosing_function_body(host_, i + 1, i + 1).first == i ? i : npos;
    }
    return npos;
  }
  // The first token of the head before the '{' at `open` (after the ';',
  // '{' or '}' that ends what comes before it).
  static std::size_t head_start(const preprocessed& p, std::size_t open) {
    std::size_t first = open;
    while (first > 0 && !p.is(first - 1, ";") && !p.is(first - 1, "{") && !p.is(first - 1, "}")) --first;
    return first;
  }
  // Whether the host's head [host_first, body) is the same tokens as the
  // device's [device_first, device_open).
  bool same_head(std::size_t host_first, std::size_t body, std::size_t device_first, std::size_t device_open) const {
    if (device_open - device_first != body - host_first) return false;
    for (std::size_t i = host_first; i < body; ++i) {
      if (device_token_[i] != device_first + (i - host_first)) return false;
    }
    return true;
  }

  void choose_body(const token_hunk& t, std::size_t body, body_pass pass) {
    chosen_.insert(body);
    const std::size_t close = host_.match(body);
    const std::size_t device_open = device_token_[body], device_close = device_token_[close];
    if (device_open == npos || device_close == npos || device_.match(device_open) != device_close) {
      warn_once(t, "this function's body differs between the host and device passes (__CUDA_ARCH__) in a way "
                   "cusim-cc cannot follow (its braces differ); the host pass's body is compiled");
      return;
    }
    body_choice choice{body, device_open, pass, body, device_open};
    const std::size_t host_first = head_start(host_, body);
    const std::size_t device_first = head_start(device_, device_open);
    if (!same_head(host_first, body, device_first, device_open)) {
      // A device function declared otherwise in each pass (its parameters
      // named otherwise under #if __CUDA_ARCH__): the device pass's whole
      // definition, where the two begin at the same place. Elsewhere, or
      // for a __host__ __device__ function, whose host pass needs its own
      // head, the host pass's.
      if (pass != body_pass::device || device_token_[host_first] != device_first) {
        warn_once(t, "this function is declared differently in the host and device passes (__CUDA_ARCH__); the "
                     "host pass's definition is compiled");
        return;
      }
      choice.host_first = host_first;
      choice.device_first = device_first;
    }
    // A library's body whose device version is inline PTX and whose host
    // version is not keeps the host's, its portable fallback: the PTX may
    // be outside what cusim runs (docs/inline-ptx.md), and the user cannot
    // change it. The user's own PTX runs, as on a GPU.
    if (in_system_header(t.tokens.a_begin) && holds_asm(device_, device_open, device_close) &&
        !holds_asm(host_, body, close)) {
      return;
    }
    bodies_[choice.host_first] = choice;
  }
  static bool holds_asm(const preprocessed& p, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i <= last; ++i) {
      if (p.tokens()[i].kind != token_kind::identifier) continue;
      const std::string_view w = p.spelling(i);
      if (w == "asm" || w == "__asm__" || w == "__asm") return true;
    }
    return false;
  }

  // Differences in system headers (Thrust's, libstdc++'s) are not the
  // user's to fix, and the host pass's version is what a host compiler
  // takes from them anyway: no warning.
  void warn_once(const token_hunk& t, const std::string& message) {
    if (in_system_header(t.tokens.a_begin)) return;
    if (warned_line_hunks_.insert(t.line_hunk).second) warn_at(t.tokens.a_begin, message);
  }
  bool in_system_header(std::size_t host_token) const {
    if (host_token >= host_.tokens().size()) return false;
    return host_.system_file(host_.lines()[host_.tokens()[host_token].line].file);
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
      const body_choice& choice = body->second;
      const std::size_t device_open = choice.device_open;
      const std::size_t close = host_.match(choice.host_open);
      if (choice.pass == body_pass::both) {
        out_ += "{ if (::cusim::detail::in_device_code())";
        append_device(device_open, device_.match(device_open) + 1);
        out_ += " else" + host_.marker_for(next);
        cursor_token_ = next + 1;
        emit_until(close);
        copy_host_to(host_.tokens()[close].end);
        out_ += " }";
      } else {
        append_device(choice.device_first, device_.match(device_open) + 1);
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
  std::set<std::size_t> warned_line_hunks_;  // one warning per difference in lines
  std::vector<std::size_t> device_token_;  // host token -> the same device token, or npos
  std::set<std::size_t> chosen_;                              // host bodies' '{' already looked at
  std::map<std::size_t, body_choice> bodies_;                 // by the host's first token replaced
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
