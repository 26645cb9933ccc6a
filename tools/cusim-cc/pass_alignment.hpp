// How the host and device passes of one file line up (device_pass.hpp): the
// differences between their token streams, each whole where it can be (a
// function the device pass adds is one difference, not the end of the
// function before it and the start of the next), and which host token is
// which device token elsewhere.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "preprocessed.hpp"
#include "sequence_diff.hpp"

namespace cusim::cc {

// A difference in tokens (a: host tokens, b: device tokens), and the
// difference in lines it was found in.
struct token_hunk {
  diff_hunk tokens;
  std::size_t line_hunk;
  bool lines_inserted;  // those lines are the device pass's alone
};

struct pass_alignment {
  std::vector<token_hunk> hunks;          // in order
  std::vector<std::size_t> device_token;  // host token -> the same device token, or npos
};

// Nothing when the passes differ in more than max_differing_lines lines.
std::optional<pass_alignment> align_passes(const preprocessed& host, const preprocessed& device,
                                           std::size_t max_differing_lines);

// Whether every bracket among tokens [first, end) is matched among them.
bool whole(const preprocessed& p, std::size_t first, std::size_t end);

}  // namespace cusim::cc
