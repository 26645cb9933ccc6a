// Where clang's AST finds the uses of each __shared__ variable the user's
// files declare, and how the rewriter recognises them in the preprocessed
// text (issue 26: "__shared__ stays what the user declared").
//
// The rewriter alone turns a function-scope `__shared__ T a[N];` into a
// reference to the block's slot: an automatic variable with an
// initializer, which a `goto` or `case` label may not jump past and which a
// lambda must capture (so a `[]` lambda naming it no longer converts to a
// function pointer); one at namespace scope becomes a view object that
// template argument deduction does not see through (`f(T*)` or
// `f(T (&)[N])` called with it does not compile). With clang's uses, every
// use `a` becomes `a.get()`, the block's array itself (an lvalue of type
// T[N], or T[] for `extern __shared__`), and the declaration a constant
// static view: nothing is initialised where it is declared, nothing needs
// capturing, and deduction sees the array.
//
// The two views meet by file and line: clang reports, for each line of the
// user's files holding uses, which occurrences of the name on that line
// (counted left to right among identifier tokens) are uses, and how many
// there are. The rewriter counts the same name on the same line of the
// preprocessed text and takes the marks only where the counts agree (a
// macro expanded on the line can add or drop occurrences). A variable
// whose declaration or any use clang cannot place (written in a macro's
// body, captured explicitly) gets no marks: it keeps the rewriter's form.
#pragma once
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cusim::cc {

// The occurrences of one name on one line.
struct shared_uses_on_line {
  std::string name;
  unsigned occurrences = 0;   // identifier tokens spelt `name` on the line
  std::vector<unsigned> uses; // which of them (from 0, left to right) name the __shared__ variable
};

struct shared_use_marks {
  // (file, line of the __shared__ keyword, name) of each declaration whose
  // every use is marked; files as canonical_source_path gives them.
  std::set<std::tuple<std::string, unsigned, std::string>> declarations;
  std::map<std::pair<std::string, unsigned>, std::vector<shared_uses_on_line>> lines;
};

// The file both sides name a line by: absolute, without `.`, `..` or links
// (clang and the host compiler may spell the same include differently).
std::string canonical_source_path(std::string_view path);

// The rewriter's side: questions about the preprocessed text, asked with
// the line marker's file name as the marker spells it (a C string's
// contents, escapes included).
class shared_use_lookup {
 public:
  explicit shared_use_lookup(const shared_use_marks& marks);

  bool declaration_marked(std::string_view marker_file, unsigned long line, std::string_view name);
  // Whether `name`, found at `at` of `line_text` (the whole output line
  // holding it), names a __shared__ variable there.
  bool is_use(std::string_view marker_file, unsigned long line, std::string_view line_text, std::size_t at,
              std::string_view name);
  // A cheap first test: whether any use anywhere is spelt `name`.
  bool may_be_use(std::string_view name) const { return names_.contains(std::string(name)); }

 private:
  const std::string& canonical(std::string_view marker_file);

  const shared_use_marks& marks_;
  std::unordered_set<std::string> names_;
  std::unordered_map<std::string, std::string> canonical_;  // by the marker's spelling
};

// The identifier tokens spelt `name` in `line_text` before `at`, and in all
// of it (string and character literals skipped).
std::pair<unsigned, unsigned> count_identifier(std::string_view line_text, std::size_t at, std::string_view name);

}  // namespace cusim::cc
