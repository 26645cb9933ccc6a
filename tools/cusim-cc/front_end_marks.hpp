// What clang's AST tells the text rewriter (issue 26), and how the
// rewriter finds it again in the preprocessed text: the marks.
//
// The marks cannot name positions in the text the rewriter reads (clang
// cannot parse g++'s preprocessed libstdc++: docs/design.md), so they name
// the user's file and line, and what on that line they are about; the
// rewriter checks each against what it sees there and ignores one that
// does not fit (a macro expanded on the line can change it), keeping its
// own reading. Where an ignored mark would leave a function-scope view
// with a use that is the view object and not the array, the rewriter sees
// the name unmarked in its output and rewrites again with that variable in
// its own form (rewrite.cpp, check_view_uses).
//
// __shared__ uses. The rewriter alone turns a function-scope
// `__shared__ T a[N];` into a reference to the block's slot: an automatic
// variable with an initializer, which a `goto` or `case` label may not jump
// past and which a lambda must capture (so a `[]` lambda naming it no
// longer converts to a function pointer); one at namespace scope becomes a
// view object that template argument deduction does not see through
// (`f(T*)` or `f(T (&)[N])` called with it does not compile). With clang's
// uses, every use `a` becomes `a.get()`, the block's array itself (an
// lvalue of type T[N], or T[] for `extern __shared__`), and the declaration
// a constant static view: nothing is initialised where it is declared,
// nothing needs capturing, and deduction sees the array. For each line,
// clang says which occurrences of the name (counted left to right among
// identifier tokens) are uses, and how many there are; the rewriter takes
// them where its own count agrees. A variable whose declaration or any use
// clang cannot place (written in a macro's body, captured explicitly) gets
// no marks: it keeps the rewriter's form.
//
// Launch callees. The rewriter finds where a launch's kernel expression
// begins by reading back from `<<<` over names, template arguments,
// members and brackets; a call (`pick(1)<<<...>>>`,
// `std::get<0>(kernels)<<<...>>>`) is not among them. clang gives, for the
// n-th `<<<` on a line, the callee's text; the rewriter takes it where the
// text before its `<<<` ends with it (blanks aside).
//
// Overloaded kernels. A launch of an overloaded kernel without template
// arguments lets C++ pick the overload from the arguments' types; the
// rewriter sees overloads only where their parameter counts differ, and
// clang names the kernels overloaded in a scope.
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

struct front_end_marks {
  // (file, line of the __shared__ keyword, name) of each declaration whose
  // every use is marked; files as canonical_source_path gives them.
  std::set<std::tuple<std::string, unsigned, std::string>> declarations;
  std::map<std::pair<std::string, unsigned>, std::vector<shared_uses_on_line>> lines;
  // By (file, line): the callee of each launch whose `<<<` is on it, in order.
  std::map<std::pair<std::string, unsigned>, std::vector<std::string>> launch_callees;
  // The names (unqualified) of kernels overloaded in one scope.
  std::set<std::string, std::less<>> overloaded_kernels;

  bool empty() const { return declarations.empty() && launch_callees.empty() && overloaded_kernels.empty(); }
};

// The file both sides name a line by: absolute, without `.`, `..` or links
// (clang and the host compiler may spell the same include differently).
std::string canonical_source_path(std::string_view path);

// The rewriter's side: questions about the preprocessed text, asked with
// the line marker's file name as the marker spells it (a C string's
// contents, escapes included).
class front_end_lookup {
 public:
  explicit front_end_lookup(const front_end_marks& marks);

  bool declaration_marked(std::string_view marker_file, unsigned long line, std::string_view name);
  // Leaves that declaration to the rewriter's own form from now on;
  // whether it was not left so already.
  bool exclude(std::string_view marker_file, unsigned long line, std::string_view name);
  // Whether `name`, found at `at` of `line_text` (the whole output line
  // holding it), names a __shared__ variable there.
  bool is_use(std::string_view marker_file, unsigned long line, std::string_view line_text, std::size_t at,
              std::string_view name);
  // A cheap first test: whether any use anywhere is spelt `name`.
  bool may_be_use(std::string_view name) const { return names_.contains(std::string(name)); }
  // The callee clang read for the launch whose `<<<` is the `ordinal`-th
  // (from 0) on `line`; empty where it has none.
  std::string_view launch_callee(std::string_view marker_file, unsigned long line, std::size_t ordinal);
  bool overloaded_kernel(std::string_view name) const { return marks_.overloaded_kernels.contains(name); }

 private:
  const std::string& canonical(std::string_view marker_file);

  const front_end_marks& marks_;
  std::unordered_set<std::string> names_;
  std::unordered_map<std::string, std::string> canonical_;  // by the marker's spelling
  std::set<std::tuple<std::string, unsigned, std::string>> excluded_;
};

// The identifier tokens spelt `name` in `line_text` before `at`, and in all
// of it (string and character literals skipped).
std::pair<unsigned, unsigned> count_identifier(std::string_view line_text, std::size_t at, std::string_view name);

}  // namespace cusim::cc
