// What the host compiler said about the rewritten file, read back: whether
// each of its errors is one clang already reported at the user's line.
//
// When both refuse a file, clang's errors are the ones to show: they are
// about the user's code as written (a launch's argument that does not
// convert), where g++ reports the same mistake inside cusim's launcher, as
// a hundred lines about std::tuple. g++'s text is left out only when every
// one of its errors is accounted for: at a line clang flagged, or in a
// header while instantiating from such a line (its "required from here").
// Anything else (an error only g++ sees, one without a place, a line clang
// did not flag) and g++'s messages are shown whole, as they always were.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace cusim::cc {

// A place in a file, as diagnostics print it (the column does not matter:
// g++ counts it in the rewritten text).
struct diagnostic_line {
  std::string file;
  unsigned line = 0;
};

// The host compiler's output without its colours (ANSI escapes), for reading.
std::string without_colours(std::string_view text);

// How many errors g++'s `output` holds, whether each is at, or
// instantiated from, one of `flagged` (the lines clang reported errors at),
// and whether g++ reports at each of those lines too.
// Paths are compared as they are printed after resolving them against the
// current directory, so `a.cu` and `./a.cu` match.
struct host_errors_reading {
  int errors = 0;
  int accounted_for = 0;
  // Whether g++ reports at every line of `flagged` too: where clang alone
  // flags a line (its parse differs from g++'s there), clang's errors are
  // not to stand alone.
  bool all_flagged_reached = false;
  bool all_accounted_for() const { return errors > 0 && errors == accounted_for && all_flagged_reached; }
};
host_errors_reading read_host_errors(std::string_view output, const std::vector<diagnostic_line>& flagged);

}  // namespace cusim::cc
