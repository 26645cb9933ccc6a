// The shortest edit between two sequences (Myers' O(ND) algorithm), as the
// runs that differ. Two preprocessing passes of one file differ in a few
// places among many thousands of equal lines, so D stays small.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cusim::cc {

// a[a_begin, a_end) was replaced by b[b_begin, b_end) (either may be empty).
struct diff_hunk {
  std::size_t a_begin, a_end, b_begin, b_end;
};

// The hunks in order, or nothing when more than max_edits elements would
// have to be inserted or removed.
std::optional<std::vector<diff_hunk>> diff_sequences(const std::vector<std::uint64_t>& a,
                                                     const std::vector<std::uint64_t>& b, std::size_t max_edits);

}  // namespace cusim::cc
