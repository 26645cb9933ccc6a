#include "rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "inline_asm.hpp"
#include "lambda_captures.hpp"
#include "front_end_marks.hpp"
#include "text_scan.hpp"

namespace cusim::cc {

namespace {

// The first `token` in `text` at or after `from` that is outside brackets
// ( [ { and outside literals, or npos.
std::size_t find_at_top_level(const std::string& text, std::size_t from, std::string_view token) {
  int depth = 0;
  for (std::size_t i = from; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = literal_end(text, i);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth == 0 && text.compare(i, token.size(), token) == 0) return i;
    ++i;
  }
  return std::string::npos;
}

// The argument list that names a template's own parameters, from its head:
// `template <class T, int N, class... R>` gives `<T, N, R...>` (defaults
// and parameter kinds left out: the parameter's name is its last word).
// None where a parameter has no name (`template <class>`) or there are none.
std::optional<std::string> own_template_arguments(const std::string& head) {
  const std::size_t open = head.find('<');
  const std::size_t close = head.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  const std::string parameters = head.substr(open + 1, close - open - 1);
  std::string arguments;
  for (std::size_t from = 0; from <= parameters.size();) {
    std::size_t end = find_at_top_level(parameters, from, ",");
    if (end == std::string::npos) end = parameters.size();
    std::string parameter = parameters.substr(from, end - from);
    if (const std::size_t eq = find_at_top_level(parameter, 0, "="); eq != std::string::npos) parameter.resize(eq);
    const std::size_t name_end = parameter.find_last_not_of(" \t.");
    if (name_end == std::string::npos || !is_ident_char(parameter[name_end])) return std::nullopt;
    std::size_t name_start = name_end + 1;
    while (name_start > 0 && is_ident_char(parameter[name_start - 1])) --name_start;
    const std::string name = parameter.substr(name_start, name_end + 1 - name_start);
    static const std::set<std::string, std::less<>> kinds{"class", "typename", "auto", "bool", "char", "short", "int",
                                                          "long", "unsigned", "signed", "size_t"};
    const std::size_t before = parameter.find_last_not_of(" \t.", name_start == 0 ? 0 : name_start - 1);
    if (kinds.count(name) != 0 || name_start == 0 || before == std::string::npos || parameter[before] == ':') {
      return std::nullopt;  // no name: only its kind
    }
    arguments += (arguments.empty() ? "" : ", ") + name + (parameter.find("...") != std::string::npos ? "..." : "");
    from = end + 1;
  }
  if (arguments.empty()) return std::nullopt;
  return "<" + arguments + ">";
}

// The `>` that closes the template argument list opening at `open`, or
// npos; a `<` or `>` in parentheses or brackets is an operator.
std::size_t template_arguments_close(std::string_view text, std::size_t open) {
  int angles = 0, nested = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (opens_literal(text, i)) {
      i = literal_end(text, i) - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++nested;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--nested < 0) return std::string_view::npos;
    } else if (c == ';') {
      return std::string_view::npos;
    } else if (nested == 0 && c == '<') {
      ++angles;
    } else if (nested == 0 && c == '>' && --angles == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// Where the class template to write as an elaborated type specifier
// stands, in the member declaration starting at `at`, or npos:
// `typedef N<args> N;` and `using N = N<args>;`, a member type named after
// the class template it instantiates, as CUB writes them (`typedef
// WarpScan<T, RAKING_THREADS, PTX_ARCH> WarpScan;`). In a class, g++
// refuses both ("changes meaning of 'WarpScan'"), where nvcc's host pass
// compiles them; `typedef struct WarpScan<...> WarpScan;` names the same
// class, and g++ takes it.
std::size_t self_named_member_type(std::string_view text, std::size_t at) {
  constexpr std::size_t none = std::string_view::npos;
  const auto next_token = [&](std::size_t from) { return from == none ? none : text.find_first_not_of(" \t\n", from); };
  // The end of `name<args>` at `from`, or npos.
  const auto template_id_end = [&](std::size_t from, std::string_view name) -> std::size_t {
    if (from == none || ident_in(text, from) != name) return none;
    const std::size_t open = next_token(from + name.size());
    if (open == none || text[open] != '<') return none;
    const std::size_t close = template_arguments_close(text, open);
    return close == none ? none : close + 1;
  };
  const std::string_view keyword = ident_in(text, at);
  const std::size_t first = next_token(at + keyword.size());
  if (first == none) return none;
  const std::string_view name = ident_in(text, first);
  static const std::set<std::string_view> not_a_class_template{"struct", "class", "union", "enum", "typename",
                                                               "const", "volatile", "unsigned", "signed", "namespace"};
  if (name.empty() || not_a_class_template.contains(name) || std::isdigit(static_cast<unsigned char>(name.front()))) {
    return none;
  }
  if (keyword == "typedef") {
    const std::size_t declared = next_token(template_id_end(first, name));
    if (declared == none || ident_in(text, declared) != name) return none;
    const std::size_t end = next_token(declared + name.size());
    return end != none && text[end] == ';' ? first : none;
  }
  const std::size_t equals = next_token(first + name.size());
  if (equals == none || text[equals] != '=') return none;
  const std::size_t aliased = next_token(equals + 1);
  const std::size_t end = next_token(template_id_end(aliased, name));
  return end != none && text[end] == ';' ? aliased : none;
}

// The length of the launch's opening `<<<` at `at`, or of the `<< <` that
// Visual Studio's formatter makes of it (nvcc takes both), or 0. Nothing
// else in C++ reads `<<` then `<`, but a template operator's
// specialization (`operator<< <T>`, `operator<< <>`).
std::size_t launch_open_at(const std::string& text, std::size_t at) {
  if (text.compare(at, 3, "<<<") == 0) return 3;
  if (text.compare(at, 2, "<<") != 0 || (at > 0 && text[at - 1] == '<')) return 0;
  const std::size_t next = skip_blanks(text, at + 2);
  if (next == at + 2 || next >= text.size() || text[next] != '<' || text.compare(next, 2, "<<") == 0) return 0;
  const std::size_t before = skip_blanks_back(text, at);
  constexpr std::string_view op = "operator";
  if (before >= op.size() && text.compare(before - op.size(), op.size(), op) == 0 &&
      (before == op.size() || !is_ident_char(text[before - op.size() - 1]))) {
    return 0;
  }
  return next + 1 - at;
}

// Where the configuration of a launch opened by `open_length` characters
// ends: the first `>>>` outside brackets, or for a `<< <` launch the first
// `>>>` or `>> >` (its formatter's closing); npos if none. `close_length`:
// how long it is.
std::size_t find_launch_close(const std::string& text, std::size_t from, std::size_t open_length,
                              std::size_t& close_length) {
  for (std::size_t at = from;; ++at) {
    at = find_at_top_level(text, at, open_length == 3 ? ">>>" : ">>");
    if (at == std::string::npos) return at;
    if (open_length == 3 || text.compare(at, 3, ">>>") == 0) {
      close_length = 3;
      return at;
    }
    const std::size_t next = skip_blanks(text, at + 2);
    if (next > at + 2 && next < text.size() && text[next] == '>') {
      close_length = next + 1 - at;
      return at;
    }
  }
}

// A class defined in a __shared__ or __constant__ declaration's type
// (`__shared__ union { int keys[128]; float values[128]; } shared;`, as
// moderngpu's kernels write it): its definition, to stand on its own before
// the declaration, which then names it. An unnamed class gets `fresh_name`
// (its own type still; only the name is new). Empty when the type defines
// no class.
struct hoisted_class {
  std::string definition;  // `union NAME { ... };`
  std::string declaration; // the declaration with `union NAME` for the class
};
std::optional<hoisted_class> hoist_class_definition(const std::string& decl, const std::string& fresh_name) {
  // The outermost class: the first key that opens a definition (a union
  // holding a struct is hoisted whole), not `enum class`.
  std::optional<hoisted_class> first;
  std::size_t first_at = std::string::npos;
  for (const std::string_view key : {"struct", "union", "class"}) {
    std::optional<hoisted_class> found;
    std::size_t found_at = std::string::npos;
    for_each_identifier(decl, 0, key, [&](std::size_t at) {
      const std::size_t before = skip_blanks_back(decl, at);
      if (before >= 4 && decl.compare(before - 4, 4, "enum") == 0 && (before == 4 || !is_ident_char(decl[before - 5]))) {
        return true;
      }
      std::size_t i = at + key.size();
      auto skip_blanks = [&] {
        while (i < decl.size() && std::isspace(static_cast<unsigned char>(decl[i]))) ++i;
      };
      skip_blanks();
      // Attributes between the key and the name.
      for (;;) {
        if (decl.compare(i, 13, "__attribute__") == 0 || decl.compare(i, 7, "alignas") == 0) {
          const std::size_t open = decl.find('(', i);
          const std::size_t close = open == std::string::npos ? open : closing_bracket(decl, open, '(', ')');
          if (close == std::string::npos) return false;
          i = close + 1;
        } else if (decl.compare(i, 2, "[[") == 0) {
          const std::size_t close = closing_bracket(decl, i, '[', ']');
          if (close == std::string::npos) return false;
          i = close + 1;
        } else {
          break;
        }
        skip_blanks();
      }
      const std::size_t name_start = i;
      while (i < decl.size() && is_ident_char(decl[i])) ++i;
      std::string name = decl.substr(name_start, i - name_start);
      skip_blanks();
      if (name == "final") name.clear();
      if (decl.compare(i, 5, "final") == 0 && (i + 5 == decl.size() || !is_ident_char(decl[i + 5]))) {
        i += 5;
        skip_blanks();
      }
      std::size_t open = i;
      if (i < decl.size() && decl[i] == ':' && decl.compare(i, 2, "::") != 0) open = decl.find('{', i);  // bases
      if (open == std::string::npos || open >= decl.size() || decl[open] != '{') return true;  // no definition here
      const std::size_t close = closing_bracket(decl, open, '{', '}');
      if (close == std::string::npos) return false;
      if (name.empty()) name = fresh_name;
      found = hoisted_class{std::string(key) + " " + name + " " + decl.substr(i, close + 1 - i) + ";",
                            decl.substr(0, at) + std::string(key) + " " + name + decl.substr(close + 1)};
      found_at = at;
      return false;
    });
    if (found && found_at < first_at) {
      first = std::move(found);
      first_at = found_at;
    }
  }
  return first;
}

// Scans a translation unit left to right, copying it to `out_` while
// replacing launches and shared declarations. Knows just enough C++ lexing
// to skip string and character literals and to track bracket nesting.
class rewriter {
 public:
  rewriter(const std::string& src, front_end_lookup* marks) : src_(src), marks_(marks) {}

  std::string run() {
    try {
      scan();
    } catch (const rewrite_error& e) {
      if (!e.file.empty()) throw;
      throw rewrite_error(e.what(), marker_file_.substr(1, marker_file_.size() - 2), current_line(), current_column());
    }
    return std::move(out_);
  }
  // Whether the text holds what clang's marks would change
  // (front_end_marks.hpp): a namespace-scope __shared__ variable, one in a
  // function with a goto or switch, one a lambda names, a launch whose
  // callee looks like a call. A superset of what the marks change, so that
  // without any of them they need not be waited for.
  bool marks_would_matter() const { return marks_would_matter_; }
  const std::vector<std::tuple<std::string, unsigned long, std::string>>& unmarked_views() const {
    return unmarked_views_;
  }

 private:
  void scan() {
    while (pos_ < src_.size()) {
      emit_due_insertions();
      const char c = src_[pos_];
      // '#' first: at_line_start() looks back over the line's indentation,
      // which for every character of a long blank run would be quadratic.
      if (c == '#' && pos_ > 0 && src_[pos_ - 1] != '\n') {
        // A macro's `#pragma unroll` (moderngpu's PRAGMA_UNROLL): a hint,
        // which nvcc takes and g++ refuses as a stray '#'. Blanks keep the
        // columns of what follows.
        if (const std::size_t end = expanded_unroll_pragma_end(); end != pos_) {
          out_.append(end - pos_, ' ');
          pos_ = end;
          continue;
        }
      }
      if (c == '#' && at_line_start()) {
        copy_until_newline();
      } else if (c == '"' || c == '\'') {
        copy_literal();
      } else if (const std::size_t open = c == '<' ? launch_open_at(src_, pos_) : 0) {
        rewrite_launch(open);
      } else if (is_ident_char(c) && !prev_is_ident()) {
        const std::string_view word = ident_at(pos_);
        if (std::isdigit(static_cast<unsigned char>(c))) {
          copy_number();
        } else if (is_raw_string_prefix(word) && pos_ + word.size() < src_.size() && src_[pos_ + word.size()] == '"') {
          copy_raw_string(pos_ + word.size() - 1);
        } else if (word == "__null" && pos_ < launch_arguments_end_) {
          out_ += "::cusim::detail::null_argument{}";
          pos_ += word.size();
        } else if (word == "__shared__") {
          rewrite_shared();
        } else if (word == "__constant__") {
          rewrite_constant();
        } else if (word == kernel_marker) {
          device_pending_ = true;
          note_kernel_declaration();
        } else if (word == device_marker) {
          device_pending_ = true;
          out_.append(word.size(), ' ');  // keeps the columns of what follows
          pos_ += word.size();
        } else if (word == host_marker) {
          out_.append(word.size(), ' ');
          pos_ += word.size();
        } else if (in_device_code() && (word == "malloc" || word == "free") && is_call_of_free_function(word, 1)) {
          rewrite_c_library_call(word);
        } else if (in_device_code() && (word == "memcpy" || word == "memmove" || word == "memset") &&
                   is_call_of_free_function(word, 3)) {
          rewrite_c_library_call(word);
        } else if (in_device_code() && (word == "asm" || word == "__asm__" || word == "__asm")) {
          rewrite_inline_asm();
        } else if (in_device_code() && word == "new" && last_word_ != "operator") {
          rewrite_new();
        } else if (in_device_code() && word == "delete" && last_word_ != "operator" && !after_equals_sign()) {
          rewrite_delete();
        } else if (word == "__noinline__" && !in_attribute()) {
          // CUDA's specifier, which no header defines (cuda_runtime.h says
          // why): spelled out here, outside attributes.
          out_ += "__attribute__((noinline))";
          pos_ += word.size();
          last_word_ = {};
        } else if (word == cluster_marker) {
          take_marker_arguments(cluster_marker, pending_cluster_dims_);
        } else if (word == bounds_marker) {
          take_marker_arguments(bounds_marker, pending_launch_bounds_);
        } else if (const std::size_t elaborate_at = (word == "typedef" || word == "using") && !in_function()
                                                        ? self_named_member_type(src_, pos_)
                                                        : std::string::npos;
                   elaborate_at != std::string::npos) {
          out_.append(src_, pos_, elaborate_at - pos_);
          out_ += "struct ";
          pos_ = elaborate_at;
          last_word_ = "struct";
        } else if (is_marked_shared_use(word)) {
          // The block's array itself (front_end_marks.hpp).
          out_.append(word);
          out_ += ".get()";
          pos_ += word.size();
          last_word_ = {};
        } else {
          if (word == "template" && !template_pending_) {
            template_pending_ = true;
            template_head_start_ = pos_;
          }
          if ((word == "goto" || word == "switch") && in_function()) outermost_function_scope().jumps = true;
          out_.append(word);
          pos_ += word.size();
          last_word_ = word;
        }
      } else {
        if (c == '[' && in_function()) add_shared_captures();
        track_brace(c);
        if (c == ';' || c == '{' || c == '}') {
          template_pending_ = false;
          device_pending_ = false;
          pending_cluster_dims_.clear();
          pending_launch_bounds_.clear();
        }
        out_.push_back(c);
        ++pos_;
        if (!std::isspace(static_cast<unsigned char>(c))) last_word_ = {};
      }
    }
    emit_due_insertions();  // one that ends the file
  }

  // Where the `#pragma unroll` (or `nounroll`, with its count: a number or
  // a parenthesized expression) at pos_ ends, where a macro's expansion put
  // it: not at a line's first column, where the preprocessor writes the
  // directives it keeps, and alone on its line, as nvcc takes it (it refuses
  // `PRAGMA_UNROLL for (...)` on one line). pos_ if there is none.
  std::size_t expanded_unroll_pragma_end() const {
    const std::size_t end = unroll_pragma_end(pos_);
    const std::size_t rest = src_.find_first_not_of(" \t\r", end);
    return rest == std::string::npos || src_[rest] == '\n' ? end : pos_;
  }
  std::size_t unroll_pragma_end(std::size_t hash) const {
    std::size_t at = skip_blanks(src_, hash + 1);
    if (ident_at(at) != "pragma") return hash;
    at = skip_blanks(src_, at + 6);
    const std::string_view hint = ident_at(at);
    if (hint != "unroll" && hint != "nounroll") return hash;
    const std::size_t after_hint = at + hint.size();
    at = skip_blanks(src_, after_hint);
    if (hint == "unroll" && at < src_.size() && is_ident_char(src_[at])) {
      return at + ident_at(at).size();  // a number or a constant's name
    }
    if (hint == "unroll" && at < src_.size() && src_[at] == '(') {
      const std::size_t close = closing_bracket(src_, at, '(', ')');
      if (close != std::string::npos && src_.find('\n', at) > close) return close + 1;
    }
    return after_hint;
  }
  bool at_line_start() const {
    for (std::size_t i = pos_; i > 0; --i) {
      const char p = src_[i - 1];
      if (p == '\n') return true;
      if (p != ' ' && p != '\t') return false;
    }
    return true;
  }
  bool prev_is_ident() const { return pos_ > 0 && is_ident_char(src_[pos_ - 1]); }
  std::string_view ident_at(std::size_t at) const { return ident_in(src_, at); }
  void copy_until_newline() {
    const std::size_t end = src_.find('\n', pos_);
    const std::size_t stop = end == std::string::npos ? src_.size() : end + 1;
    note_line_marker(src_.substr(pos_, stop - pos_), stop);
    out_.append(src_, pos_, stop - pos_);
    pos_ = stop;
  }
  // `# 24 "file.cu" 2`: the next line is line 24 of file.cu. The rewritten
  // code is compiled without re-preprocessing, so __FILE__ and __LINE__ must
  // be spelled out by the rewriter.
  void note_line_marker(const std::string& line, std::size_t next_line_start) {
    std::size_t i = 1;
    while (i < line.size() && line[i] == ' ') ++i;
    if (line.compare(i, 4, "line") == 0) i += 4;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size() || !std::isdigit(static_cast<unsigned char>(line[i]))) return;
    // stoul throws std::out_of_range past ULONG_MAX; the preprocessor never
    // writes such a line, so the input is not what cusim-cc expects.
    try {
      marker_line_ = std::stoul(line.substr(i));
    } catch (const std::out_of_range&) {
      throw rewrite_error("a line marker with an out-of-range line number: " + line.substr(0, line.find('\n')));
    }
    marker_end_ = next_line_start;
    const std::size_t q1 = line.find('"', i), q2 = line.rfind('"');
    if (q1 != std::string::npos && q2 > q1) marker_file_ = line.substr(q1, q2 - q1 + 1);
    // Flag 3 after the name: a system header.
    marker_system_ = false;
    if (q2 != std::string::npos) {
      std::string flags = line.substr(q2 + 1);
      std::replace_if(flags.begin(), flags.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }, ' ');
      marker_system_ = (flags + " ").find(" 3 ") != std::string::npos;
    }
  }
  unsigned long current_column() const {
    const std::size_t at = std::min(pos_, src_.size());
    const std::size_t newline = at == 0 ? std::string::npos : src_.rfind('\n', at - 1);
    return at - (newline == std::string::npos ? 0 : newline + 1) + 1;
  }
  unsigned long current_line() const {
    const std::size_t at = std::min(pos_, src_.size());
    if (marker_end_ > at) return marker_line_;
    // Counts on from where the previous call stopped, when that counted from
    // the same marker: recounting from the marker for every declaration was
    // quadratic in a file with many of them.
    if (lines_counted_from_ != marker_end_ || lines_counted_to_ > at) {
      lines_counted_from_ = lines_counted_to_ = marker_end_;
      lines_counted_ = 0;
    }
    lines_counted_ += static_cast<unsigned long>(std::count(src_.begin() + static_cast<std::ptrdiff_t>(lines_counted_to_),
                                                            src_.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    lines_counted_to_ = at;
    return marker_line_ + lines_counted_;
  }

  void copy_literal() {
    const std::size_t end = literal_end(src_, pos_);
    out_.append(src_, pos_, end - pos_);
    pos_ = end;
  }
  // R"x(...)x", with an encoding prefix or not (u8R, uR, UR, LR).
  static bool is_raw_string_prefix(std::string_view word) {
    return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
  }
  // A pp-number: digits, letters, '.', digit separators (1'000'000) and the
  // sign of an exponent (1e-5, 0x1p+3). Its ' must not open a character literal.
  void copy_number() {
    if (zero_arguments_.count(pos_) != 0) {  // a launch's `0` argument (rewrite_launch)
      out_ += "::cusim::detail::zero_argument{}";
      ++pos_;
      return;
    }
    std::size_t end = pos_;
    while (end < src_.size()) {
      const char c = src_[end];
      const bool separator = c == '\'' && end + 1 < src_.size() && std::isalnum(static_cast<unsigned char>(src_[end + 1]));
      const bool exponent_sign = (c == '+' || c == '-') && std::strchr("eEpP", src_[end - 1]) != nullptr;
      if (!is_ident_char(c) && c != '.' && !separator && !exponent_sign) break;
      ++end;
    }
    out_.append(src_, pos_, end - pos_);
    pos_ = end;
    last_word_ = {};
  }
  // The raw string whose R is at `r_at` (its prefix starts at pos_).
  void copy_raw_string(std::size_t r_at) {
    // The delimiter is at most 16 characters, none of them a space, paren or
    // backslash (the preprocessor rejects others). Checked, so that the
    // search for its end stays linear and text without one is not taken
    // for a raw string's delimiter.
    const std::size_t open = src_.find_first_of("() \\\t\v\f\n", r_at + 2);
    if (open == std::string::npos || src_[open] != '(' || open - r_at - 2 > 16) {
      throw rewrite_error("a raw string literal R\"... without a valid delimiter and '('");
    }
    const std::string delim = ")" + src_.substr(r_at + 2, open - r_at - 2) + "\"";
    const std::size_t close = src_.find(delim, open);
    const std::size_t end = close == std::string::npos ? src_.size() : close + delim.size();
    out_.append(src_, pos_, end - pos_);
    pos_ = end;
  }

  // Braces: is the innermost enclosing scope inside a function body? A body
  // opens after ')' or a trailing function specifier; class, namespace and
  // initializer braces open after other tokens.
  void track_brace(char c) {
    if (c == '{') {
      const bool function_end = last_significant_is_function_end();
      const bool body = in_function() || function_end;
      // Device code: the body of a __global__ or __device__ function (or
      // lambda), and everything nested in it.
      const bool device = in_device_code() || (function_end && device_pending_);
      // A class body, at namespace scope or local to a function.
      scopes_.push_back({body, device, !function_end && opens_class_body(pos_)});
      scopes_.back().open = pos_;
      while (!lambda_bodies_.empty() && lambda_bodies_.front().first <= pos_) {
        if (lambda_bodies_.front().first == pos_) scopes_.back().lambda_parameters = std::move(lambda_bodies_.front().second);
        lambda_bodies_.erase(lambda_bodies_.begin());
      }
    } else if (c == '}' && !scopes_.empty()) {
      const scope& closing = scopes_.back();
      for (const scope::view_record& view : closing.shared_views) check_view_uses(view);
      // A function whose shared variables clang would make views (goto, switch).
      const bool outermost = closing.function && (scopes_.size() == 1 || !scopes_[scopes_.size() - 2].function);
      if (outermost && closing.declares_shared && closing.jumps) marks_would_matter_ = true;
      scopes_.pop_back();
    }
  }
  // Whether `word` at pos_ is a use, by clang's marks, of a __shared__
  // variable this rewriter made a view (emit_shared).
  bool is_marked_shared_use(std::string_view word) {
    if (marks_ == nullptr || !marks_->may_be_use(word)) return false;
    const bool view = namespace_views_.contains(std::string(word)) ||
                      std::any_of(scopes_.begin(), scopes_.end(), [&](const scope& s) {
                        return std::any_of(s.shared_views.begin(), s.shared_views.end(),
                                           [&](const scope::view_record& v) { return v.name == word; });
                      });
    if (!view) return false;
    // A member's name is never the variable (a macro on the line may have
    // moved the count onto one).
    if (after_member_access(out_, out_.size())) return false;
    const std::size_t line_start = line_start_of(src_, pos_);
    const std::size_t line_end = std::min(src_.find('\n', pos_), src_.size());
    return marks_->is_use(marker_file_name(), current_line(),
                                std::string_view(src_).substr(line_start, line_end - line_start), pos_ - line_start, word);
  }
  // The file the last line marker names, as it spells it.
  std::string_view marker_file_name() const { return std::string_view(marker_file_).substr(1, marker_file_.size() - 2); }

  bool in_function() const { return !scopes_.empty() && scopes_.back().function; }
  bool in_device_code() const { return !scopes_.empty() && scopes_.back().device; }
  // A lambda opening here that names function-scope shared variables
  // captures them by reference (lambda_captures.hpp says why).
  void add_shared_captures() {
    // The names in sight: not those of the function around a local class,
    // nor those an enclosing lambda's parameters hide.
    // Most '[' in a function are subscripts: that test first.
    if (!opens_lambda(out_, std::string_view(src_).substr(pos_))) return;
    std::vector<std::string> visible;
    for (const scope& s : scopes_) {
      if (s.class_body) visible.clear();
      visible.insert(visible.end(), s.shared_names.begin(), s.shared_names.end());
      std::erase_if(visible, [&](const std::string& name) {
        return find_word(s.lambda_parameters, name) != std::string_view::npos;
      });
    }
    if (visible.empty()) return;
    if (auto lambda = read_lambda(src_, pos_, visible)) {
      if (!lambda->captures.empty()) {
        marks_would_matter_ = true;  // clang's marks make the variable a view, needing no capture
        insert_when_reached(lambda->introducer_end, std::move(lambda->captures));
      }
      lambda_bodies_.push_back({lambda->body, std::move(lambda->parameters)});
    }
  }
  // Whether the line starting at `line_start` is a directive or line marker.
  static bool is_directive_line(std::string_view text, std::size_t line_start) {
    const std::size_t first = text.find_first_not_of(" \t", line_start);
    return first != std::string_view::npos && text[first] == '#';
  }
  bool last_significant_is_function_end() const {
    if (!last_word_.empty()) {
      return last_word_ == "const" || last_word_ == "noexcept" || last_word_ == "override" ||
             last_word_ == "final" || last_word_ == "mutable";
    }
    for (std::size_t i = out_.size(); i > 0; --i) {
      const char p = out_[i - 1];
      if (std::isspace(static_cast<unsigned char>(p))) continue;
      // A line marker between a function's head and its body: the device
      // pass's merge (device_pass.hpp) puts one there when the body comes
      // from the pass that defined __CUDA_ARCH__.
      const std::size_t line = out_.rfind('\n', i - 1);
      if (is_directive_line(out_, line == std::string::npos ? 0 : line + 1)) {
        i = line == std::string::npos ? 1 : line + 1;
        continue;
      }
      return p == ')';
    }
    return false;
  }

  // `callee<<<config>>>(args)`: the callee is already in out_; find where it
  // starts there: an id-expression (perhaps qualified, perhaps with template
  // arguments), a member or element of something (`table.fn`, `p->fns[2]`),
  // or a parenthesized expression (`(*kernel_pointer)`).
  std::size_t callee_start() const {
    std::size_t i = out_.size();
    while (i > 0 && std::isspace(static_cast<unsigned char>(out_[i - 1]))) --i;
    if (i > 0 && out_[i - 1] == ')') return opening_of(i, '(', ')');
    for (;;) {
      if (i > 0 && out_[i - 1] == '>') {  // template arguments
        i = opening_of(i, '<', '>');
        while (i > 0 && std::isspace(static_cast<unsigned char>(out_[i - 1]))) --i;
      }
      while (i > 0 && out_[i - 1] == ']') i = opening_of(i, '[', ']');
      while (i > 0 && is_ident_char(out_[i - 1])) --i;
      if (i >= 2 && ((out_[i - 1] == ':' && out_[i - 2] == ':') || (out_[i - 1] == '>' && out_[i - 2] == '-'))) {
        i -= 2;
        continue;
      }
      if (i >= 1 && out_[i - 1] == '.') {
        i -= 1;
        continue;
      }
      return i;
    }
  }
  // Where the callee clang read for this launch (front_end_marks.hpp)
  // starts in out_, if out_ ends with it (blanks aside).
  std::optional<std::size_t> marked_callee_start() {
    if (marks_ == nullptr) return std::nullopt;
    std::size_t ordinal = 0;
    for (std::size_t at = line_start_of(src_, pos_); at < pos_;) {
      if (opens_literal(src_, at)) {
        at = literal_end(src_, at);
      } else if (const std::size_t open = launch_open_at(src_, at)) {
        ++ordinal;
        at += open;
      } else {
        ++at;
      }
    }
    const std::string_view text = marks_->launch_callee(marker_file_name(), current_line(), ordinal);
    if (text.empty()) return std::nullopt;
    std::size_t i = out_.size();
    for (std::size_t j = text.size(); j > 0; --j) {
      if (std::isspace(static_cast<unsigned char>(text[j - 1]))) continue;
      i = skip_blanks_back(out_, i, launch_end_);
      if (i == launch_end_ || out_[i - 1] != text[j - 1]) return std::nullopt;
      --i;
    }
    // The callee whole: not the tail of a longer name, member or qualified name.
    const std::size_t before = skip_blanks_back(out_, i, launch_end_);
    if (after_member_access(out_, i, launch_end_) ||
        (before > launch_end_ && (is_ident_char(out_[before - 1]) || out_[before - 1] == ':'))) {
      return std::nullopt;
    }
    return i;
  }
  // Where the bracket group that ends just before `end` in out_ opens.
  std::size_t opening_of(std::size_t end, char open, char close) const {
    int depth = 0;
    // Not back into the previous launch's replacement, which a callee may
    // not hold (rewrite_launch): each launch then scans only the text since
    // the previous one, not all of out_ (quadratic in a run of launches).
    for (std::size_t i = end; i > launch_end_; --i) {
      const char c = out_[i - 1];
      if (open == '<' && (c == ')' || c == ']' || c == '}')) {
        // In template arguments a '<' or '>' counts only outside brackets:
        // C++ makes `k<(N > 2 ? 7 : 1)>` parenthesize the comparison.
        i = opening_of(i, c == ')' ? '(' : c == ']' ? '[' : '{', c) + 1;
        continue;
      }
      if (c == close) ++depth;
      if (c == open && --depth == 0) return i - 1;
    }
    // Without its opening, the "callee" would be everything before, earlier
    // launches' replacements included, which the replacement repeats (as the
    // name): the output would double with each such launch.
    throw rewrite_error(std::string("a kernel launch whose callee has a '") + close + "' without its '" + open + "'" +
                        (launch_end_ > 0 ? " after the previous launch" : ""));
  }

  // `open`: the length of the `<<<` (or `<< <`) at pos_.
  void rewrite_launch(std::size_t open) {
    std::size_t start = 0;
    if (const std::optional<std::size_t> marked = marked_callee_start()) {
      start = *marked;
    } else {
      start = callee_start();
      // `(...)` right after a name or a bracket: a call's arguments, not a
      // parenthesized kernel expression; only clang knows where the callee starts.
      const std::size_t before = skip_blanks_back(out_, start, launch_end_);
      if (out_[start] == '(' && before > launch_end_ &&
          (is_ident_char(out_[before - 1]) || std::strchr(")]>}", out_[before - 1]) != nullptr)) {
        marks_would_matter_ = true;
      }
    }
    // The replacement repeats the callee (its name, the deduced form): a
    // callee holding an earlier launch's replacement, as in
    // `(k<<<1, 1>>>(x))<<<1, 1>>>(y)`, doubled the output at each level.
    if (start < launch_end_) throw rewrite_error("a kernel launch whose kernel expression holds another launch");
    std::string callee = out_.substr(start);
    out_.resize(start);
    // Line breaks inside or after the callee go after the replacement.
    const auto callee_newlines = static_cast<std::size_t>(std::count(callee.begin(), callee.end(), '\n'));
    std::replace(callee.begin(), callee.end(), '\n', ' ');
    while (!callee.empty() && std::isspace(static_cast<unsigned char>(callee.back()))) callee.pop_back();
    if (callee.empty()) throw rewrite_error("a <<<...>>> launch with no kernel before it");
    // The configuration runs to the first ">>>" outside brackets.
    std::size_t close = 0;
    const std::size_t i = find_launch_close(src_, pos_ + open, open, close);
    if (i == std::string::npos) throw rewrite_error("a kernel launch '" + callee + "<<<' has no closing '>>>'");
    const std::string config = src_.substr(pos_ + open, i - pos_ - open);
    if (config.find_first_not_of(" \t\n") == std::string::npos) {
      throw rewrite_error("the kernel launch '" + callee + "<<<>>>' has no configuration (grid and block)");
    }
    // For reports: the callee without template arguments (a call, as written),
    // as a string literal's text.
    std::string name;
    const bool call = callee.back() == ')' && callee.front() != '(';  // not a parenthesized kernel expression
    for (char c : call ? callee : callee.substr(0, callee.find('<'))) {
      if (c == '"' || c == '\\') name += '\\';
      name += c;
    }
    const bool template_id = callee.find('<') != std::string::npos;
    const bool deduced = is_template_kernel(name) || (!template_id && is_overloaded_kernel(name));
    if (deduced) {
      // Template arguments deduced from the launch's arguments, all of
      // them (`k<<<...>>>`) or those the callee leaves (`k<4><<<...>>>` for
      // `template <int N, class T>`): the resolver picks the specialization
      // once their types are known. So for overloaded kernels: the overload
      // whose parameters the arguments match exactly, or else a call that
      // C++ resolves. A callee that names one kernel (`k<4, float>`) is it.
      // The resolver's names are reserved ones: a user's `k<A>` keeps its A.
      // `__cusim_R`: the argument types with a non-const class lvalue kept
      // a reference, for a kernel's reference parameter (`T& e`).
      const std::string pointer = "static_cast<void (*)(__cusim_A...)>(" + callee + ")";
      const std::string by_reference = "static_cast<void (*)(__cusim_R...)>(" + callee + ")";
      const std::string unique = "::cusim::detail::unique_function<__cusim_A...>(" + callee + ")";
      out_ += "::cusim::detail::launch_deduced(\"" + name +
              "\", []<class... __cusim_A, class... __cusim_R>(::cusim::detail::kernel_signature<__cusim_A...>, "
              "::cusim::detail::kernel_signature<__cusim_R...>) { if constexpr (requires { " +
              pointer + "; }) return " + pointer + "; else if constexpr (requires { " + by_reference + "; }) return " +
              by_reference + "; else if constexpr (requires { " + unique + "; }) return " + unique +
              "; else return +[](__cusim_A... __cusim_a) { " + callee + "(__cusim_a...); }; }, " + config + ")";
    } else {
      out_ += "::cusim::detail::launch_named(\"" + name + "\", " + callee + ", " + config + ")";
    }
    // A kernel this file declares, called by name from the thread loop,
    // so that the compiler can compile its code into the loop
    // (detail::direct_kernel_call). The parentheses keep argument-
    // dependent lookup out: the call finds what the launch found.
    if (is_kernel(name) && (name.find("::") != std::string::npos || !may_name_a_variable(name)) &&
        !template_arguments_may_name_a_local(callee)) {
      out_ += ".calling_by_name([](auto&&... __cusim_arguments) { (" + callee + ")(__cusim_arguments...); })";
    }
    launch_end_ = out_.size();
    out_.append(callee_newlines, '\n');
    note_markers(pos_, i);
    pos_ = i + close;
    // A launch's arguments: NULL, and an argument that is just `0`, become
    // stand-ins that convert to a pointer or a number (launch.hpp). g++'s
    // NULL is a `long` and `0` an `int` once the launcher forwards them,
    // which no pointer parameter takes, where nvcc's launch passes them to
    // the parameter as written. Where the kernel's template arguments are
    // deduced, the stand-ins count as the `long` and `int` they stand for.
    const std::size_t open_paren = src_.find_first_not_of(" \t\n", pos_);
    if (open_paren == std::string::npos || src_[open_paren] != '(') return;
    const std::size_t close_paren = closing_bracket(src_, open_paren, '(', ')');
    if (close_paren == std::string::npos) return;
    launch_arguments_end_ = std::max(launch_arguments_end_, close_paren);
    for (std::size_t start = open_paren + 1; start < close_paren;) {
      std::size_t end = find_at_top_level(src_, start, ",");
      if (end == std::string::npos || end > close_paren) end = close_paren;
      const std::size_t first = src_.find_first_not_of(" \t\n", start);
      if (first < end && src_[first] == '0' && src_.find_first_not_of(" \t\n", first + 1) == end) {
        zero_arguments_.insert(first);
      }
      start = end + 1;
    }
  }

  // `__global__` reaches the rewriter as this marker (cuda_runtime.h): the
  // rewriter learns the kernels' names and which are templates, and drops it.
  static constexpr std::string_view kernel_marker = "__cusim_global__";
  static constexpr std::size_t declaration_reach = 4096;

  static constexpr std::string_view cluster_marker = "__cusim_cluster_dims__";
  // And __launch_bounds__(max threads[, min blocks[, max blocks per cluster]]).
  static constexpr std::string_view bounds_marker = "__cusim_launch_bounds__";
  // `__device__` reaches the rewriter as this marker (cuda_runtime.h).
  static constexpr std::string_view device_marker = "__cusim_device__";
  // And `__host__` as this one, which only the merge of the __CUDA_ARCH__
  // passes reads (device_pass.hpp).
  static constexpr std::string_view host_marker = "__cusim_host__";

  // Dynamic memory in device code comes from the device heap
  // (cudaLimitMallocHeapSize), as on a GPU: malloc and free, new and delete
  // in __global__ and __device__ functions are rewritten to cusim's, which
  // use the heap in a kernel and the host's allocator outside one (for
  // __host__ __device__ functions called from the host). memcpy, memmove
  // and memset become cusim's too (device_memory_functions.hpp), which tell
  // the checking builds' hooks what they read and write.
  //
  // `malloc(` or `std::malloc(` / `::malloc(`, not `x.malloc(` or `x->malloc(`,
  // with C's count of `arguments`: a call with another count is of another
  // function of that name (Thrust's malloc(policy, n), free(policy, p)).
  bool is_call_of_free_function(std::string_view word, std::size_t arguments) const {
    const std::size_t open = src_.find_first_not_of(" \t\n", pos_ + word.size());
    if (open == std::string::npos || src_[open] != '(') return false;
    if (argument_count(open) != arguments) return false;
    const std::size_t before = out_.find_last_not_of(" \t\n");
    if (before == std::string::npos) return true;
    if (out_[before] == '.' || (out_[before] == '>' && before > 0 && out_[before - 1] == '-')) return false;
    if (out_[before] != ':') return true;
    // Qualified: only by `std::` or `::` alone.
    std::size_t q = before;
    while (q > 0 && (out_[q - 1] == ':' || out_[q - 1] == ' ')) --q;
    std::size_t b = q;
    while (b > 0 && is_ident_char(out_[b - 1])) --b;
    const std::string qualifier = out_.substr(b, q - b);
    if (qualifier.empty()) return true;
    // `std::` or `::std::`, not `cuda::std::`.
    const bool nested = b >= 3 && out_[b - 1] == ':' && out_[b - 2] == ':' && is_ident_char(out_[b - 3]);
    return qualifier == "std" && !nested;
  }
  void rewrite_c_library_call(std::string_view word) {
    // Drop a `std::`, `::std::` or `::` already written: the replacement is
    // fully qualified. (Only those: a `:` before them is a conditional's.)
    std::size_t b = out_.size();
    const auto take_scope = [&] {
      std::size_t c = b;
      while (c > 0 && (out_[c - 1] == ' ' || out_[c - 1] == '\t' || out_[c - 1] == '\n')) --c;
      if (c < 2 || out_[c - 1] != ':' || out_[c - 2] != ':') return false;
      b = c - 2;
      return true;
    };
    if (take_scope()) {
      std::size_t end = b;
      while (end > 0 && out_[end - 1] == ' ') --end;
      std::size_t start = end;
      while (start > 0 && is_ident_char(out_[start - 1])) --start;
      if (out_.compare(start, end - start, "std") == 0) {
        b = start;
        take_scope();
      }
      out_.resize(b);
    }
    out_ += "::cusim::detail::device_";
    out_ += word;
    pos_ += word.size();
    last_word_ = {};
  }
  // `new T` -> `new (::cusim::detail::device_heap) T`. A placement new (or a
  // parenthesized type) already has parentheses after `new`: left alone.
  void rewrite_new() {
    out_ += "new";
    pos_ += 3;
    last_word_ = {};
    const std::size_t next = src_.find_first_not_of(" \t\n", pos_);
    if (next != std::string::npos && src_[next] != '(') out_ += " (::cusim::detail::device_heap)";
  }
  // `delete p` -> `::cusim::detail::device_delete() = p`, `delete[] p` ->
  // `::cusim::detail::device_delete_array() = p`: the assignment takes the
  // rest of the operand, as `delete` does, and frees it to where it came from.
  void rewrite_delete() {
    pos_ += 6;
    std::size_t next = src_.find_first_not_of(" \t", pos_);
    bool array = false;
    if (next != std::string::npos && src_[next] == '[') {
      const std::size_t close = src_.find_first_not_of(" \t", next + 1);
      if (close != std::string::npos && src_[close] == ']') {
        array = true;
        pos_ = close + 1;
      }
    }
    out_ += array ? "::cusim::detail::device_delete_array() =" : "::cusim::detail::device_delete() =";
    last_word_ = {};
  }
  // Inside __attribute__((...)) or [[gnu::...]]: after '(', ',' or ':'.
  bool in_attribute() const {
    const std::size_t before = out_.find_last_not_of(" \t\n");
    return before != std::string::npos && std::strchr("(,:", out_[before]) != nullptr;
  }
  // `= delete` (a deleted function) is not a delete-expression.
  bool after_equals_sign() const {
    const std::size_t before = out_.find_last_not_of(" \t\n");
    return before != std::string::npos && out_[before] == '=';
  }

  // `__cluster_dims__(2, 1, 1)` or `__launch_bounds__(256, 2)` (as their
  // markers): removed, the arguments kept for the kernel they belong to
  // (written before or after __global__).
  void take_marker_arguments(std::string_view marker, std::string& pending) {
    const std::size_t open = src_.find_first_not_of(" \t", pos_ + marker.size());
    const std::size_t close = open == std::string::npos || src_[open] != '(' ? std::string::npos : matching_close(open);
    if (close == std::string::npos) {
      throw rewrite_error(marker == cluster_marker ? "__cluster_dims__ without its (x, y, z)"
                                                   : "__launch_bounds__ without its (max threads, ...)");
    }
    pending = src_.substr(open + 1, close - open - 1);
    for (std::size_t i = pos_; i <= close; ++i) out_ += src_[i] == '\n' ? '\n' : ' ';
    pos_ = close + 1;
  }

  void note_kernel_declaration() {
    // nvcc refuses kernels that are members of a class, static or not; a
    // friend declaration names a function of the enclosing namespace.
    const bool in_class = !scopes_.empty() && !scopes_.back().function && scopes_.back().class_body;
    if (in_class && !in_friend_declaration()) {
      throw rewrite_error(
          "a __global__ function cannot be a member function (nvcc: \"A __global__ function or function template "
          "cannot be a member function\"): declare the kernel at namespace scope");
    }
    const bool is_template = template_pending_;
    out_.append(kernel_marker.size(), ' ');  // keeps the columns of what follows
    pos_ += kernel_marker.size();
    // The name is the identifier before the first '(' that does not open an attribute.
    for (std::size_t at = pos_; at < src_.size();) {
      // A declaration's name is near its __global__: look no further than
      // that, so that text without one costs little (many markers would
      // otherwise each search to the end of the file).
      const std::size_t paren = std::string_view(src_).substr(0, at + declaration_reach).find_first_of("(;{", at);
      if (paren == std::string::npos || src_[paren] != '(') return;
      std::size_t end = paren;
      while (end > at && std::isspace(static_cast<unsigned char>(src_[end - 1]))) --end;
      std::size_t begin = end;
      while (begin > at && is_ident_char(src_[begin - 1])) --begin;
      const std::string word = src_.substr(begin, end - begin);
      if (word == "__attribute__" || word == "__declspec" || word == "alignas" || word == bounds_marker ||
          word == cluster_marker) {
        const std::size_t close = matching_close(paren);
        if (close == std::string::npos) return;
        if (word == cluster_marker) pending_cluster_dims_ = src_.substr(paren + 1, close - paren - 1);
        if (word == bounds_marker) pending_launch_bounds_ = src_.substr(paren + 1, close - paren - 1);
        at = close + 1;
        continue;
      }
      if (word.empty()) return;
      kernel_declarations& declared = kernels_[word];
      declared.is_template = declared.is_template || is_template;
      declared.parameter_counts.insert(argument_count(paren));
      if (const std::size_t close = matching_close(paren); close != std::string::npos) {
        std::string parameters;  // blanks aside: a prototype and its definition usually read alike
        for (char c : std::string_view(src_).substr(paren, close - paren)) {
          if (!std::isspace(static_cast<unsigned char>(c))) parameters += c;
        }
        declared.parameter_lists.insert(std::move(parameters));
      }
      // `__global__ void ns::k(...) {...}`: defined outside its namespace,
      // registered after it by its qualified name.
      std::size_t qualified_begin = begin;
      for (;;) {
        std::size_t before = qualified_begin;
        while (before > at && std::isspace(static_cast<unsigned char>(src_[before - 1]))) --before;
        if (before < at + 2 || src_[before - 1] != ':' || src_[before - 2] != ':') break;
        qualified_begin = before - 2;
        while (qualified_begin > at && std::isspace(static_cast<unsigned char>(src_[qualified_begin - 1]))) --qualified_begin;
        while (qualified_begin > at && is_ident_char(src_[qualified_begin - 1])) --qualified_begin;
      }
      std::string address = src_.substr(qualified_begin, end - qualified_begin);
      std::erase_if(address, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
      // A friend is registered at its definition, outside the class.
      if (!is_template && !in_class) register_after_definition(word, address, begin, paren);
      if (is_template && !in_class) register_instances_in_body(word, address, paren);
      return;
    }
  }

  // The text of the declaration that runs up to `at`: back to the previous
  // ';', '{' or '}' (no further than declaration_reach).
  std::string_view declaration_head(std::size_t at) const {
    std::size_t start = at;
    while (start > 0 && src_[start - 1] != ';' && src_[start - 1] != '{' && src_[start - 1] != '}' &&
           at - start < declaration_reach)
      --start;
    return std::string_view(src_).substr(start, at - start);
  }
  // Whether the declaration the scan is in began with `friend`.
  bool in_friend_declaration() const { return find_word(declaration_head(pos_), "friend") != std::string_view::npos; }

  // Whether the '{' at `open` starts the body of a class, struct or union
  // (`struct alignas(16) holder : base {`; not `enum class E {`).
  bool opens_class_body(std::size_t open) const {
    const std::string_view head = declaration_head(open);
    for (const char* keyword : {"struct", "class", "union"}) {
      const std::size_t at = find_word(head, keyword);
      if (at == std::string_view::npos) continue;
      const std::size_t before = head.find_last_not_of(" \t\n", at == 0 ? std::string_view::npos : at - 1);
      const bool enum_class = at > 0 && before != std::string_view::npos && before >= 3 &&
                              head.substr(before - 3, 4) == "enum";
      if (!enum_class) return true;
    }
    return false;
  }
  // A non-template kernel is registered by address, so that launches given
  // it as `const void*` (cudaLaunchKernel((void*)k, ...)) find its parameter
  // types. The registration follows the definition (after the '}' of its
  // body), in the same scope, so that `name` resolves there; the
  // parameter list picks the overload. Its site ("file:line:name", the line
  // of `name` at `name_at`) is how the front end's facts find a kernel with
  // internal linkage (tools/cusim-cc/kernel_facts.hpp).
  void register_after_definition(const std::string& name, const std::string& address, std::size_t name_at,
                                 std::size_t open_paren) {
    const std::size_t close = matching_close(open_paren);
    std::size_t end = body_of_definition(open_paren);
    if (end == std::string::npos) return;
    end = closing_brace(end);
    if (end == std::string::npos) return;
    const std::string parameters = parameters_without_defaults(src_.substr(open_paren, close + 1 - open_paren));
    const std::string cluster = take_pending_attributes();
    const unsigned long line =
        current_line() + static_cast<unsigned long>(std::count(src_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                                               src_.begin() + static_cast<std::ptrdiff_t>(name_at), '\n'));
    const std::string counter = std::to_string(registration_counter_++);
    insert_when_reached(
        end + 1, " static const ::cusim::detail::kernel_registration<void" + parameters +
                      "> cusim_kernel_registration_" + counter + "(" + address + ", \"" + name + "\"" + cluster +
                      "); static const ::cusim::detail::kernel_site<void" + parameters + "> cusim_kernel_site_" +
                      counter + "(" + address + ", " + marker_file_ + " \":" + std::to_string(line) + ":" + name + "\");");
  }
  // The kernel's __cluster_dims__ and __launch_bounds__ seen before its name,
  // as the arguments that follow its name in kernel_registration's
  // constructor and registered_template_kernel (", (dim3(...)),
  // (launch_bounds{...})"), or "" for neither. In a template's body the
  // arguments may name its parameters (`__launch_bounds__(BLOCK)`): each
  // instance gets its own; the parentheses keep a `>` in them
  // (`N > 256 ? 256 : N`) from ending the template's argument list.
  std::string take_pending_attributes() {
    std::string attributes;
    if (!pending_cluster_dims_.empty() || !pending_launch_bounds_.empty()) {
      attributes = ", (dim3(" + (pending_cluster_dims_.empty() ? std::string("0, 0, 0") : pending_cluster_dims_) + "))";
      if (!pending_launch_bounds_.empty()) {
        attributes += ", (::cusim::detail::launch_bounds{" + pending_launch_bounds_ + "})";
      }
      attributes = one_line(attributes);
      pending_cluster_dims_.clear();
      pending_launch_bounds_.clear();
    }
    return attributes;
  }
  // The '{' of the body of the function whose parameter list opens at
  // `open_paren`; npos where the declaration is not a plain definition.
  // Only a definition: taking the address of a kernel declared and never
  // defined (cdpAdvancedQuicksort declares a qsort_warp it never defines)
  // would fail the link, and a kernel defined elsewhere is registered there.
  std::size_t body_of_definition(std::size_t open_paren) const {
    const std::size_t close = matching_close(open_paren);
    if (close == std::string::npos) return std::string::npos;
    std::size_t end = close + 1;
    while (end < src_.size() && src_[end] != ';' && src_[end] != '{') {
      if (src_[end] == '\n' && is_directive_line(src_, end + 1)) {
        // A line marker before the body (the device pass's merge puts one there): skip it.
        end = src_.find('\n', end + 1);
        if (end == std::string::npos) return end;
        continue;
      }
      if (src_[end] == '(' || src_[end] == '"' || src_[end] == '\'' || src_[end] == '}') return std::string::npos;
      ++end;
    }
    return end < src_.size() && src_[end] == '{' ? end : std::string::npos;
  }
  // A kernel template: its body names the registration of the instance it
  // is (kernel_call.hpp's registered_template_kernel), so that every
  // instance the program makes is registered as it starts, whether
  // launched with <<<...>>> or only given as `(void*)k<int>` to
  // cudaLaunchKernel.
  void register_instances_in_body(const std::string& name, const std::string& address, std::size_t open_paren) {
    const std::size_t open = body_of_definition(open_paren);
    const std::size_t head_open = src_.find('<', template_head_start_);
    if (open == std::string::npos || head_open == std::string::npos || head_open > open_paren) return;
    const std::size_t head_close = closing_bracket(src_, head_open, '<', '>');
    if (head_close == std::string::npos || head_close > open_paren) return;
    const std::string head = src_.substr(template_head_start_, head_close + 1 - template_head_start_);
    const std::string parameters =
        parameters_without_defaults(src_.substr(open_paren, matching_close(open_paren) + 1 - open_paren));
    const std::optional<std::string> arguments = own_template_arguments(head);
    if (!arguments) return;  // an unnamed parameter, or an explicit specialization (`template <>`)
    const std::string instance = one_line("static_cast<void (*)" + parameters + ">(" + address + *arguments + ")");
    insert_when_reached(open + 1, " (void)::cusim::detail::registered_template_kernel<" + instance + ", \"" + name +
                                      "\"" + take_pending_attributes() + ">::registration;");
  }
  // The '}' closing the '{' at `open`, skipping literals; npos if none.
  std::size_t closing_brace(std::size_t open) const { return closing_bracket(src_, open, '{', '}'); }
  // "(int* a, int n = 5)" -> "(int* a, int n )": a function type has no default arguments.
  static std::string parameters_without_defaults(const std::string& list) {
    std::string out;
    int depth = 0;
    bool skipping = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const char c = list[i];
      if (c == '"' || c == '\'') {
        const std::size_t end = literal_end(list, i);
        if (!skipping) out.append(list, i, end - i);
        i = end - 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      if (depth == 1 && c == '=') skipping = true;
      if ((depth == 1 && c == ',') || depth == 0) skipping = false;
      if (!skipping) out += c == '\n' ? ' ' : c;
    }
    return out;
  }
  void insert_when_reached(std::size_t at, std::string text) {
    const auto later = std::upper_bound(pending_insertions_.begin(), pending_insertions_.end(), at,
                                        [](std::size_t a, const insertion& i) { return a < i.at; });
    pending_insertions_.insert(later, {at, std::move(text)});
  }
  void emit_due_insertions() {
    while (!pending_insertions_.empty() && pos_ >= pending_insertions_.front().at) {
      out_ += pending_insertions_.front().text;
      pending_insertions_.erase(pending_insertions_.begin());
    }
  }
  // How many arguments (or parameters) the parenthesized list opening at
  // `open` holds: its commas outside nested brackets and literals, plus
  // one; none for `()` and `(void)`. (Commas of template arguments count:
  // callers use it where that errs safely.)
  std::size_t argument_count(std::size_t open) const {
    const std::size_t close = matching_close(open);
    if (close == std::string::npos) return 1;
    const std::size_t first = src_.find_first_not_of(" \t\n", open + 1);
    if (first == close || (src_.compare(first, 4, "void") == 0 && src_.find_first_not_of(" \t\n", first + 4) == close)) {
      return 0;
    }
    std::size_t count = 1;
    int depth = 0;
    for (std::size_t i = open + 1; i < close; ++i) {
      const char c = src_[i];
      if (c == '"' || c == '\'') {
        i = literal_end(src_, i) - 1;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      } else if (c == ',' && depth == 0) {
        ++count;
      }
    }
    return count;
  }
  // The ')' closing the '(' at `open` (within declaration_reach), or npos.
  std::size_t matching_close(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < src_.size() && i < open + declaration_reach; ++i) {
      if (src_[i] == '"' || src_[i] == '\'') {
        i = literal_end(src_, i) - 1;
        continue;
      }
      if (src_[i] == '(') ++depth;
      if (src_[i] == ')' && --depth == 0) return i;
    }
    return std::string::npos;
  }
  bool is_template_kernel(const std::string& qualified_name) const {
    const auto it = find_kernel(qualified_name);
    return it != kernels_.end() && it->second.is_template;
  }
  // Whether the unqualified kernel name `name` may, at the launch being
  // rewritten, name something else: a parameter or local variable of the
  // enclosing function (or of a lambda in it) declared with that name, or,
  // in a member function, perhaps a member. The lambda of a direct call
  // captures nothing and could not name those: such a launch keeps the
  // call through the pointer. Erring towards "may" costs only speed.
  bool may_name_a_variable(const std::string& name) const {
    const auto function = std::find_if(scopes_.begin(), scopes_.end(), [](const scope& s) { return s.function; });
    if (function == scopes_.end()) return true;
    if (std::any_of(scopes_.begin(), function, [](const scope& s) { return s.class_body; })) return true;
    // The function's head: from the end of what came before it to its '{'.
    const std::size_t before = src_.find_last_of(";{}", function->open == 0 ? 0 : function->open - 1);
    const std::size_t head_start = before == std::string::npos ? 0 : before + 1;
    const std::string_view head = std::string_view(src_).substr(head_start, function->open - head_start);
    if (has_qualified_declarator(head)) return true;  // `void S::f() {`: a member function, maybe
    return declares(std::string_view(src_).substr(head_start, pos_ - head_start), name);
  }
  // Whether `text` declares a variable or parameter `name` (a declarator's
  // end after a type).
  static bool declares(std::string_view text, const std::string& name) {
    for (std::size_t at = find_word(text, name); at != std::string_view::npos;) {
      const std::size_t end = at + name.size();
      const std::size_t next = text.find_first_not_of(" \t\n", end);
      const std::size_t previous = at == 0 ? std::string_view::npos : text.find_last_not_of(" \t\n", at - 1);
      const bool declarator_end = next != std::string_view::npos && std::string_view("=;,)[{").find(text[next]) != std::string_view::npos;
      const bool after_a_type = previous != std::string_view::npos &&
                                (is_ident_char(text[previous]) || std::string_view("*&>").find(text[previous]) != std::string_view::npos);
      if (declarator_end && after_a_type) return true;
      const std::size_t rest = find_word(text.substr(end), name);
      at = rest == std::string_view::npos ? rest : end + rest;
    }
    return false;
  }
  // Whether the template arguments of a launch's callee (`k<BLOCK, N>`) may
  // name a local variable of the function the launch is in (a constexpr
  // one). The thread loop's call by name is a lambda that captures nothing,
  // which g++ refuses to let name such a variable where an enclosing
  // lambda captured it (HeCBench geglu: a launch inside `[&]{ ... }`).
  bool template_arguments_may_name_a_local(const std::string& callee) const {
    const std::size_t open = callee.find('<');
    if (open == std::string::npos) return false;
    const auto function = std::find_if(scopes_.begin(), scopes_.end(), [](const scope& s) { return s.function; });
    if (function == scopes_.end()) return false;
    const std::string_view body = std::string_view(src_).substr(function->open, pos_ - function->open);
    for (std::size_t at = open + 1; at < callee.size(); ++at) {
      if (!is_ident_char(callee[at]) || (at > 0 && is_ident_char(callee[at - 1]))) continue;
      const std::string word(ident_in(callee, at));
      const bool qualified = at >= 2 && callee.compare(at - 2, 2, "::") == 0;
      if (!qualified && !std::isdigit(static_cast<unsigned char>(word[0])) && declares(body, word)) return true;
      at += word.size() - 1;
    }
    return false;
  }
  // `... S::f(` or `ns::f(` in a function's head.
  static bool has_qualified_declarator(std::string_view head) {
    for (std::size_t colons = head.find("::"); colons != std::string_view::npos; colons = head.find("::", colons + 2)) {
      std::size_t i = head.find_first_not_of(" \t\n~", colons + 2);
      while (i < head.size() && is_ident_char(head[i])) ++i;
      i = head.find_first_not_of(" \t\n", i);
      if (i != std::string_view::npos && head[i] == '(') return true;
    }
    return false;
  }
  bool is_kernel(const std::string& qualified_name) const { return find_kernel(qualified_name) != kernels_.end(); }
  // Declared with different numbers of parameters: the name alone does not
  // say which kernel a launch means (cuda-samples' cdpAdvancedQuicksort).
  // Overloads with different parameter counts the text shows; those with
  // one count, only clang's marks (front_end_marks.hpp): the rewriter
  // cannot tell `k(int*)` and `k(float*)` from a declaration and a
  // definition of one kernel, and asks for the marks where their parameter
  // lists read differently.
  bool is_overloaded_kernel(const std::string& qualified_name) {
    const auto it = find_kernel(qualified_name);
    if (it == kernels_.end()) return false;
    if (it->second.parameter_counts.size() > 1) return true;
    if (marks_ != nullptr) return marks_->overloaded_kernel(it->first);
    if (it->second.parameter_lists.size() > it->second.parameter_counts.size()) marks_would_matter_ = true;
    return false;
  }
  // What the declarations of the kernels of one name say.
  struct kernel_declarations {
    bool is_template = false;
    std::set<std::size_t> parameter_counts;  // more than one: overloaded
    std::set<std::string> parameter_lists;   // as written; more than counts: perhaps overloaded
  };
  std::map<std::string, kernel_declarations, std::less<>>::const_iterator find_kernel(
      const std::string& qualified_name) const {
    const std::size_t colon = qualified_name.rfind(':');
    return kernels_.find(colon == std::string::npos ? qualified_name : qualified_name.substr(colon + 1));
  }

  // An asm statement in device code holds PTX: run by cusim's interpreter
  // (inline_asm.hpp).
  void rewrite_inline_asm() {
    // A library's PTX outside cusim's subset is reported if it runs: the
    // library may never call it (CUB's headers hold PTX for every GPU).
    const asm_translation asm_statement =
        translate_inline_asm(src_, pos_, marker_file_, current_line(), /*refuse_unknown=*/!marker_system_);
    note_markers(pos_, asm_statement.end);
    out_ += asm_statement.replacement;
    pos_ = asm_statement.end;
    last_word_ = {};
  }

  // Text the rewriter moves past without copying it as it scans (a launch
  // configuration, a declaration) may hold line markers: note them.
  void note_markers(std::size_t from, std::size_t to) {
    // The search stops at `to`: on from there, a file without another line
    // break would be searched to its end for every declaration.
    const std::string_view region = std::string_view(src_).substr(0, to);
    for (std::size_t at = region.find('\n', from); at != std::string::npos; at = region.find('\n', at + 1)) {
      std::size_t first = at + 1;
      while (first < to && (src_[first] == ' ' || src_[first] == '\t')) ++first;
      if (first >= to || src_[first] != '#') continue;
      const std::size_t line_end = src_.find('\n', first);
      const std::size_t next = line_end == std::string::npos ? src_.size() : line_end + 1;
      note_line_marker(src_.substr(first, next - first), next);
    }
  }

  struct declaration_text {
    bool is_extern = false;
    bool is_static = false;
    std::string template_head;  // `template <class T>` of a variable template
    std::string qualifiers;  // volatile / const written before the keyword
    std::string body;        // from after the keyword to before the ';', on one line
    std::string line_breaks; // its line breaks and line markers, re-emitted to keep line numbers
    std::size_t end = 0;     // index of the terminating ';'
    unsigned long line = 0;  // the user's line of the keyword
  };

  // The start of the declaration specifier that ends at `end` of out_: a
  // word, a `::`, or a template argument list `<...>`; `end` if none.
  std::size_t specifier_start(std::size_t end) const {
    if (end >= 2 && out_.compare(end - 2, 2, "::") == 0) return end - 2;
    if (end > 0 && out_[end - 1] == '>') {
      int depth = 0;
      for (std::size_t i = end; i > 0; --i) {
        const char c = out_[i - 1];
        if (c == '>') ++depth;
        if (c == '<' && --depth == 0) return i - 1;
        if (c == ';' || c == '{' || c == '}') return end;
      }
      return end;
    }
    std::size_t begin = end;
    while (begin > 0 && is_ident_char(out_[begin - 1])) --begin;
    return begin;
  }

  // Whether index `at` of out_ is on a preprocessor line (a line marker).
  bool in_line_marker(std::size_t at) const {
    const std::size_t line_start = at == 0 ? 0 : out_.rfind('\n', at - 1) + 1;  // npos + 1 == 0
    const std::size_t first = out_.find_first_not_of(" \t", line_start);
    return first != std::string::npos && first < at && out_[first] == '#';
  }

  // Reads the declaration around a keyword (__shared__, __constant__) at
  // pos_: takes back the specifiers already copied before it (`extern
  // double __shared__ s[]` has its type there) and consumes the text up to
  // its ';'.
  declaration_text take_declaration(std::size_t keyword_length) {
    declaration_text d;
    for (;;) {
      std::size_t end = out_.size();
      while (end > 0 && std::isspace(static_cast<unsigned char>(out_[end - 1]))) --end;
      const std::size_t begin = specifier_start(end);
      if (begin == end || in_line_marker(begin)) break;
      const std::string word = out_.substr(begin, end - begin);
      if (word.front() == '<') {
        // A variable template's head (`template <class T> __constant__ T
        // m[4]`) ends the specifiers.
        const std::size_t keyword_end = skip_blanks_back(out_, begin);
        const std::size_t keyword = specifier_start(keyword_end);
        if (out_.compare(keyword, keyword_end - keyword, "template") == 0) {
          d.template_head = out_.substr(keyword);
          d.line_breaks.append(static_cast<std::size_t>(std::count(d.template_head.begin(), d.template_head.end(), '\n')), '\n');
          std::replace(d.template_head.begin(), d.template_head.end(), '\n', ' ');
          out_.resize(keyword);
          break;
        }
      }
      if (word == "extern") {
        d.is_extern = true;
      } else if (word == "static") {
        d.is_static = true;
      } else {
        d.qualifiers = word + " " + d.qualifiers;
      }
      d.line_breaks.append(static_cast<std::size_t>(std::count(out_.begin() + static_cast<std::ptrdiff_t>(begin), out_.end(), '\n')), '\n');
      out_.resize(begin);
    }
    d.end = find_declaration_end(pos_);
    d.line = current_line();
    // Line markers inside (the preprocessor writes one for a run of blank
    // lines) leave the declaration's text and are re-emitted after it.
    const std::string text = src_.substr(pos_ + keyword_length, d.end - pos_ - keyword_length);
    std::size_t line_start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && text[i] != '\n') continue;
      const std::string line = text.substr(line_start, i - line_start);
      const std::size_t first = line.find_first_not_of(" \t");
      const bool marker = line_start > 0 && first != std::string::npos && line[first] == '#';
      if (marker) d.line_breaks += line.substr(first);
      else d.body += (d.body.empty() ? "" : " ") + line;
      if (i < text.size()) d.line_breaks += '\n';
      line_start = i + 1;
    }
    take_specifiers_after_keyword(d);
    note_markers(pos_, d.end);
    return d;
  }

  // Specifiers written after the keyword (`__shared__ extern T s[]`,
  // `__constant__ static char c[4]`, `__constant__ __device__ int k[4]`),
  // which nvcc takes in any order: read as if written before it.
  void take_specifiers_after_keyword(declaration_text& d) const {
    for (;;) {
      const std::size_t first = d.body.find_first_not_of(' ');
      if (first == std::string::npos) return;
      const std::string_view word = ident_in(d.body, first);
      if (word == "extern") {
        d.is_extern = true;
      } else if (word == "static") {
        d.is_static = true;
      } else if (word != device_marker) {
        return;
      }
      d.body.erase(0, first + word.size());
    }
  }

  // Moves past the declaration, whose replacement is already in out_.
  void finish_declaration(const declaration_text& d) {
    out_ += d.line_breaks;
    pos_ = d.end + 1;
    last_word_ = {};
  }

  // A __shared__ declaration: from the qualifiers before it to its ';'.
  void rewrite_shared() {
    const declaration_text d = take_declaration(10);
    out_ += d.template_head;  // a variable template's: left as written
    emit_shared(hoisting_class_definition(d.qualifiers + d.body), d.is_extern, d.line);
    finish_declaration(d);
  }

  // `decl` without the class its type defines, whose definition goes to
  // out_ first (hoist_class_definition); device and host markers in it
  // become blanks, as the scan makes them elsewhere.
  std::string hoisting_class_definition(const std::string& decl) {
    const std::string fresh_name = "cusim_declared_type_" + std::to_string(declared_types_);
    auto hoisted = hoist_class_definition(decl, fresh_name);
    if (!hoisted) return decl;
    const bool named_here = hoisted->definition.find(fresh_name) != std::string::npos;
    if (named_here) ++declared_types_;
    for (const std::string_view marker : {device_marker, host_marker}) {
      for (std::size_t at = hoisted->definition.find(marker); at != std::string::npos;
           at = hoisted->definition.find(marker, at)) {
        hoisted->definition.replace(at, marker.size(), marker.size(), ' ');
      }
    }
    // At namespace scope, in an unnamed namespace: another file's class of
    // the same made-up name is another class.
    out_ += in_function() || !named_here ? hoisted->definition + " " : "namespace { " + hoisted->definition + " } ";
    return hoisted->declaration;
  }

  // `__constant__ float c[4] = {...};` at namespace scope: storage local to
  // this file, and `c` a reference to it. The reference is not const: in
  // nvcc the variable's type is not const either (`unsigned* p = &c[0]`
  // compiles), only a direct assignment in device code is refused, which a
  // text rewriter cannot tell apart (docs/cusim-cc.md).
  // cudaMemcpyToSymbol(c, ...) copies into the storage. `extern __constant__`
  // (separate compilation) declares the reference. Each storage is
  // registered for __isConstant.
  void rewrite_constant() {
    const declaration_text d = take_declaration(12);
    std::vector<declarator> declarators;
    const std::string base = split_declarators(hoisting_class_definition(d.qualifiers + d.body), declarators);
    for (const declarator& v : declarators) {
      const std::string type = "::std::type_identity_t<" + base + v.stars + v.bounds + ">";
      if (d.is_extern) {
        out_ += d.template_head + "extern " + type + "& " + v.name + ";";
        continue;
      }
      const std::string storage = "cusim_constant_storage_" + v.name;
      if (!d.template_head.empty()) {
        // A variable template: each instance's storage is registered as
        // its reference is bound.
        const std::optional<std::string> arguments = own_template_arguments(d.template_head);
        if (!arguments) throw rewrite_error("a __constant__ variable template with an unnamed template parameter");
        const std::string instance = storage + *arguments;
        out_ += d.template_head + " static " + base + " " + v.stars + storage + v.bounds + v.initializer + "; " +
                d.template_head + " decltype(" + instance + ")& " + v.name +
                " = ::cusim::detail::registered_constant(" + instance + ");";
        continue;
      }
      // decltype: `char s[] = "..."` has its bound from the initializer.
      out_ += "static " + base + " " + v.stars + storage + v.bounds + v.initializer + "; " +
              (d.is_static ? "static " : "") + "decltype(" + storage + ")& " + v.name + " = " + storage + ";";
      // Registered, so that __isConstant knows the storage.
      out_ += " static const bool cusim_constant_known_" + v.name +
              " = ::cusim::detail::register_constant_memory(&" + storage + ", sizeof " + storage + ");";
    }
    finish_declaration(d);
  }

  std::size_t find_declaration_end(std::size_t from) const {
    const std::size_t end = find_at_top_level(src_, from, ";");
    if (end == std::string::npos) throw rewrite_error("a __shared__ or __constant__ declaration without a ';'");
    return end;
  }

  struct declarator {
    std::string name;
    std::string stars;        // pointer declarator part, "*" or ""
    std::string bounds;       // "[256][4]" or "[]"
    std::string initializer;  // " = {1, 2}" or ""
  };

  // Splits "float a[16], *b, c[2][2]" into the base type and declarators.
  static std::string split_declarators(const std::string& decl, std::vector<declarator>& out) {
    std::vector<std::string> pieces;
    int depth = 0;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < decl.size(); ++i) {
      const char c = decl[i];
      if (c == '"' || c == '\'') {
        i = literal_end(decl, i) - 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      if (c == ',' && depth == 0) {
        pieces.push_back(decl.substr(begin, i - begin));
        begin = i + 1;
      }
    }
    pieces.push_back(decl.substr(begin));
    std::string base;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      std::string piece = pieces[p];
      declarator d;
      if (const std::size_t eq = find_at_top_level(piece, 0, "="); eq != std::string::npos) {
        d.initializer = " " + piece.substr(eq);
        piece.resize(eq);
      }
      while (!piece.empty() && std::isspace(static_cast<unsigned char>(piece.back()))) piece.pop_back();
      std::size_t bracket = piece.find('[');
      std::string head = piece.substr(0, bracket);
      if (bracket != std::string::npos) d.bounds = piece.substr(bracket);
      while (!head.empty() && std::isspace(static_cast<unsigned char>(head.back()))) head.pop_back();
      std::size_t name_begin = head.size();
      while (name_begin > 0 && is_ident_char(head[name_begin - 1])) --name_begin;
      d.name = head.substr(name_begin);
      head.resize(name_begin);
      while (!head.empty() && (std::isspace(static_cast<unsigned char>(head.back())) || head.back() == '*')) {
        if (head.back() == '*') d.stars += '*';
        head.pop_back();
      }
      if (p == 0) {
        const std::size_t first = head.find_first_not_of(" \t");
        base = first == std::string::npos ? std::string() : head.substr(first);
      }
      if (d.name.empty() || base.empty()) throw rewrite_error("cannot read the declaration '" + decl + "'");
      out.push_back(d);
    }
    return base;
  }

  // Takes `alignas(...)` and `__attribute__((aligned(...)))` (what
  // `__align__(n)` becomes) out of a declaration; returns them.
  static std::string take_alignment(std::string& decl) {
    std::string specifiers;
    for (std::size_t at = 0; at < decl.size();) {
      if (!is_ident_char(decl[at]) || (at > 0 && is_ident_char(decl[at - 1]))) {
        ++at;
        continue;
      }
      std::size_t end = at;
      while (end < decl.size() && is_ident_char(decl[end])) ++end;
      const std::string word = decl.substr(at, end - at);
      std::size_t open = end;
      while (open < decl.size() && std::isspace(static_cast<unsigned char>(decl[open]))) ++open;
      if ((word != "alignas" && word != "__attribute__") || open >= decl.size() || decl[open] != '(') {
        at = end;
        continue;
      }
      int depth = 0;
      std::size_t close = open;
      for (; close < decl.size(); ++close) {
        if (decl[close] == '(') ++depth;
        if (decl[close] == ')' && --depth == 0) break;
      }
      if (close >= decl.size()) throw rewrite_error("an unbalanced '" + word + "(' in a __shared__ declaration");
      const std::string specifier = decl.substr(at, close + 1 - at);
      if (word == "alignas" || specifier.find("aligned") != std::string::npos) {
        specifiers += specifier + " ";
        decl.erase(at, close + 1 - at);
      } else {
        at = close + 1;
      }
    }
    return specifiers;
  }

  // With clang's marks on every use of a function-scope variable, it is a
  // constant static view like one at namespace scope, and each use is made
  // the block's array (front_end_marks.hpp); without them, a reference (or
  // pointer) to the block's memory.
  void emit_shared(std::string decl, bool is_extern, unsigned long line) {
    const std::string alignment = take_alignment(decl);
    std::vector<declarator> declarators;
    const std::string base = split_declarators(decl, declarators);
    for (const declarator& d : declarators) {
      const bool uses_marked =
          marks_ != nullptr && marks_->declaration_marked(marker_file_name(), line, d.name);
      if (!in_function()) {
        namespace_views_.insert(d.name);
        marks_would_matter_ = true;
      } else {
        outermost_function_scope().declares_shared = true;
      }
      const std::string element = base + d.stars;
      if (is_extern) {
        // The dynamic part starts the block's arena, aligned for any declaration (see block.cpp).
        // `T name[][N]` is an array of T[N]: the bounds after the first are the element's.
        const std::size_t first_bound_end = d.bounds.find(']');
        const std::string inner = first_bound_end == std::string::npos ? "" : d.bounds.substr(first_bound_end + 1);
        const std::string type = inner.empty() ? element : "::std::type_identity_t<" + element + inner + ">";
        if (in_function() && uses_marked) {
          out_ += "[[maybe_unused]] static constexpr ::cusim::detail::dynamic_shared_array<" + type + "> " + d.name + "{};";
          scopes_.back().shared_views.push_back({d.name, std::string(marker_file_name()), line, out_.size()});
        } else if (in_function()) {
          // A pointer, which everything an array name does in an expression
          // does too (T* deduction, s + i, &s[0], sizeof(s[0])).
          out_ += "[[maybe_unused]] " + type + "* const " + d.name + " = static_cast<" + type +
                  "*>(::cusim::detail::dynamic_shared());";
          scopes_.back().shared_names.push_back(d.name);
        } else {
          out_ += "::cusim::detail::dynamic_shared_array<" + type + "> " + d.name + ";";
        }
        continue;
      }
      const std::string type = "::std::type_identity_t<" + element + d.bounds + ">";
      const std::string site = "cusim_shared_site_" + std::to_string(site_counter_++);
      std::string align = "alignof(" + type + ")";
      if (!alignment.empty()) {
        // An empty struct with the declaration's alignment specifiers knows
        // the alignment they ask for, whether they name a type or a number.
        const std::string holder = site + "_alignment";
        out_ += "struct " + alignment + holder + " {}; ";
        align = "(alignof(" + holder + ") > " + align + " ? alignof(" + holder + ") : " + align + ")";
      }
      const std::string site_decl = "static constinit ::cusim::detail::shared_site " + site + "{sizeof(" + type +
                                    "), " + align + ", \"" + d.name + "\", " + marker_file_ + ", " +
                                    std::to_string(line) + "};";
      if (in_function() && uses_marked) {
        out_ += site_decl + " [[maybe_unused]] static constexpr ::cusim::detail::local_shared_view<" + type + "> " +
                d.name + "{&" + site + "};";
        scopes_.back().shared_views.push_back({d.name, std::string(marker_file_name()), line, out_.size()});
      } else if (in_function()) {
        out_ += site_decl + " " + type + "& " + d.name + " = *static_cast<" + type +
                "*>(::cusim::detail::shared_slot(" + site + "));";
        scopes_.back().shared_names.push_back(d.name);
      } else {
        // Namespace scope: a view that finds the running block's slot on use.
        out_ += "namespace { " + site_decl + " } ::cusim::detail::static_shared_view<" + type + ", &" + site +
                "> " + d.name + ";";
      }
    }
  }

  const std::string& src_;
  front_end_lookup* marks_;  // clang's marks, or none
  // Whether clang's marks could change the text (rewrite_translation_unit).
  bool marks_would_matter_ = false;
  unsigned declared_types_ = 0;           // names given to unnamed classes of __shared__ and __constant__ declarations
  std::size_t launch_arguments_end_ = 0;  // in src_: the last launch's argument list ends before it
  std::set<std::size_t> zero_arguments_;  // in src_: where a launch's argument is just `0`
  // Views with a use the marks missed (check_view_uses): (file, line, name).
  std::vector<std::tuple<std::string, unsigned long, std::string>> unmarked_views_;
  std::set<std::string, std::less<>> namespace_views_;  // __shared__ variables at namespace scope
  std::string out_;
  std::size_t pos_ = 0;
  std::string_view last_word_;
  struct scope {
    bool function;  // a function body or a scope inside one
    bool device;    // device code: a __global__ or __device__ function's body, or inside one
    bool class_body;  // the body of a class, struct or union
    std::vector<std::string> shared_names = {};  // __shared__ variables declared in it, as references
    // And as static views (their uses marked by clang): each with where
    // the text after its declaration starts in out_ (check_view_uses).
    struct view_record {
      std::string name;
      std::string file;    // of its declaration, as the line marker spells it
      unsigned long line;
      std::size_t from;
    };
    std::vector<view_record> shared_views = {};
    std::string lambda_parameters = {};          // a lambda body's: they hide shared names
    bool declares_shared = false;  // a function's body (outermost): declares a __shared__ variable
    bool jumps = false;            // and holds a goto or switch
    std::size_t open = 0;                        // where its '{' is in src_
  };
  // Lambdas read ahead (add_shared_captures): where each body opens, and its
  // parameter list, for the scope that brace opens; in the order of the text.
  std::vector<std::pair<std::size_t, std::string>> lambda_bodies_;
  std::vector<scope> scopes_;
  // A function-scope view is right only where every use became `.get()`: a
  // use left as the name (one the marks missed: in a macro that changed the
  // line, in another declaration, a launch's configuration, inline PTX's
  // operands) would be the view object, whose sizeof and type are not the
  // array's. Every occurrence of the name after the declaration that is not
  // `name.get()` or a member's name sends the declaration back to the
  // rewriter's own form (rewrite_translation_unit rewrites again); so does
  // a local that hides it, which is safe.
  void check_view_uses(const scope::view_record& view) {
    const std::string_view text(out_);
    for_each_identifier(text, view.from, view.name, [&](std::size_t at) {
      if (after_member_access(text, at) || text.substr(at + view.name.size(), 6) == ".get()") return true;
      unmarked_views_.push_back({view.file, view.line, view.name});
      return false;
    });
  }

  // The body of the function (at namespace or class scope) the scan is in.
  scope& outermost_function_scope() {
    return *std::find_if(scopes_.begin(), scopes_.end(), [](const scope& s) { return s.function; });
  }
  bool device_pending_ = false;  // a __global__ or __device__ declaration has begun
  bool template_pending_ = false;                // `template` seen since the last ; { }
  std::size_t template_head_start_ = 0;          // in src_: that `template`
  std::map<std::string, kernel_declarations, std::less<>> kernels_;  // by name
  unsigned site_counter_ = 0;
  std::size_t launch_end_ = 0;
  // Text due at an index of src_ the scan has not reached: a kernel's
  // registration after its declaration, captures before a lambda's ']'.
  struct insertion {
    std::size_t at;  // emitted once the scan reaches this index of src_
    std::string text;
  };
  std::vector<insertion> pending_insertions_;
  unsigned registration_counter_ = 0;
  std::string pending_launch_bounds_;  // __launch_bounds__ arguments awaiting their kernel
  std::string pending_cluster_dims_;  // __cluster_dims__ arguments awaiting their kernel  // out_'s size at the end of the last launch's replacement
  std::string marker_file_ = "\"<source>\"";
  bool marker_system_ = false;  // the text is a system header's
  unsigned long marker_line_ = 1;
  std::size_t marker_end_ = 0;
  mutable std::size_t lines_counted_from_ = 0;  // current_line()'s cache: line breaks
  mutable std::size_t lines_counted_to_ = 0;    // in [from, to) of src_
  mutable unsigned long lines_counted_ = 0;
};

}  // namespace

std::string rewrite_translation_unit(const std::string& source, front_end_lookup* marks,
                                     bool* marks_would_matter) {
  for (;;) {
    rewriter pass(source, marks);
    std::string text = pass.run();
    if (marks_would_matter != nullptr) *marks_would_matter = pass.marks_would_matter();
    // A view with a use the marks missed: again, with it in the rewriter's
    // own form. Each pass excludes more declarations; one that excludes
    // none it has not before (it cannot, but were it to) ends with the
    // rewriter's own forms throughout.
    if (marks == nullptr || pass.unmarked_views().empty()) return text;
    bool more = false;
    for (const auto& [file, line, name] : pass.unmarked_views()) more |= marks->exclude(file, line, name);
    if (!more) marks = nullptr;
  }
}

}  // namespace cusim::cc
