// Comparing a program's output with a golden one, line by line and value by
// value: text and integers exactly, floating-point values exactly or within
// a relative or absolute tolerance, elapsed times (a number before "ms" or "us") not at
// all, and, for programs whose lines come in no fixed order (device printf
// from many blocks), the lines as a multiset.
#pragma once
#include <string>
#include <vector>

namespace cusim::tools {

struct comparison_rules {
  double relative_tolerance = 0;  // 0 (and absolute 0): floating-point values must match as text
  double absolute_tolerance = 0;  // values this close agree whatever their size (for results near 0)
  bool unordered = false;         // compare sorted lines
};

struct mismatch {
  std::size_t line = 0;  // 1-based, in the golden output (in sorted order when unordered)
  std::string expected, actual;  // whole lines; empty with `missing` / `extra`
  std::string detail;            // which value differs, and by how much
};

// Every difference between `expected` (the golden output) and `actual`.
std::vector<mismatch> compare_outputs(const std::string& expected, const std::string& actual,
                                      const comparison_rules& rules);

}  // namespace cusim::tools
