#include "compare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "run_program.hpp"

namespace cusim::tools {

namespace {

// A line cut into text and numbers: "sum 4.5 of 3" is "sum ", 4.5, " of ", 3.
struct piece {
  std::string text;
  bool number = false;
  bool integer = false;
};

bool starts_number(const std::string& s, std::size_t i) {
  const bool after_word = i > 0 && (std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_');
  if (after_word) return false;  // "sm_90", "x2": part of a word
  if (s[i] == '-' || s[i] == '+') ++i;
  return i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) ||
                          (s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))));
}

// The end of the number starting at `i`, and whether it is an integer.
std::size_t number_end(const std::string& s, std::size_t i, bool& integer) {
  integer = true;
  if (s[i] == '-' || s[i] == '+') ++i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i < s.size() && s[i] == '.') {
    integer = false;
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E') &&
      (std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
       ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 2]))))) {
    integer = false;
    i += 2;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  return i;
}

std::vector<piece> pieces_of(const std::string& line) {
  std::vector<piece> pieces;
  std::size_t i = 0;
  while (i < line.size()) {
    if (starts_number(line, i)) {
      bool integer = true;
      const std::size_t end = number_end(line, i, integer);
      pieces.push_back({line.substr(i, end - i), true, integer});
      i = end;
    } else {
      if (pieces.empty() || pieces.back().number) pieces.push_back({});
      pieces.back().text += line[i++];
    }
  }
  return pieces;
}

// A number followed by " ms" or " us" is a time measured in the run.
bool is_elapsed_time(const std::vector<piece>& pieces, std::size_t index) {
  if (!pieces[index].number || index + 1 >= pieces.size()) return false;
  const std::string& next = pieces[index + 1].text;
  return next.rfind(" ms", 0) == 0 || next.rfind(" us", 0) == 0 || next.rfind("ms", 0) == 0;
}

// Empty when the two lines agree under `rules`, else what differs.
std::string line_difference(const std::string& expected, const std::string& actual, const comparison_rules& rules) {
  if (expected == actual) return {};
  const auto a = pieces_of(expected), b = pieces_of(actual);
  if (a.size() != b.size()) return "the lines differ in shape";
  std::size_t value = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].number != b[i].number) return "the lines differ in shape";
    if (!a[i].number) {
      if (a[i].text != b[i].text) return "text \"" + a[i].text + "\" became \"" + b[i].text + "\"";
      continue;
    }
    ++value;
    if (a[i].text == b[i].text || (is_elapsed_time(a, i) && is_elapsed_time(b, i))) continue;
    const std::string which = "value " + std::to_string(value) + ": expected " + a[i].text + ", got " + b[i].text;
    if (a[i].integer && b[i].integer) return which;
    if (rules.relative_tolerance <= 0 && rules.absolute_tolerance <= 0) {
      return which + " (floating point compared exactly; see --rel and --abs)";
    }
    const double x = std::strtod(a[i].text.c_str(), nullptr), y = std::strtod(b[i].text.c_str(), nullptr);
    const double scale = std::max(std::fabs(x), std::fabs(y));
    const double relative = scale == 0 ? 0 : std::fabs(x - y) / scale;
    if (relative > rules.relative_tolerance && std::fabs(x - y) > rules.absolute_tolerance) {
      std::ostringstream detail;
      detail << which << " (relative difference " << relative << ", tolerance " << rules.relative_tolerance
             << "; absolute " << std::fabs(x - y) << ", tolerance " << rules.absolute_tolerance << ")";
      return detail.str();
    }
  }
  return {};
}

}  // namespace

std::vector<mismatch> compare_outputs(const std::string& expected, const std::string& actual,
                                      const comparison_rules& rules) {
  std::vector<std::string> a = lines_of(expected), b = lines_of(actual);
  if (rules.unordered) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
  }
  std::vector<mismatch> found;
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    std::string detail = line_difference(a[i], b[i], rules);
    if (!detail.empty()) found.push_back({i + 1, a[i], b[i], std::move(detail)});
  }
  for (std::size_t i = common; i < a.size(); ++i) found.push_back({i + 1, a[i], "", "missing from the output"});
  for (std::size_t i = common; i < b.size(); ++i) found.push_back({i + 1, "", b[i], "not in the golden output"});
  return found;
}

}  // namespace cusim::tools
