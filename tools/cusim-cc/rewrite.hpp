// The source rewrite cusim-cc applies to a preprocessed .cu translation unit:
// the constructs a C++ compiler cannot take, or would take with the wrong meaning.
//   k<<<grid, block, shared, stream>>>(args)  ->  ::cusim::detail::launch_named("k", k, grid, block, ...)(args)
//   __shared__ float cache[256];              ->  a per-block slot (see include/cusim/detail/device_api.hpp)
//   extern __shared__ float s[];              ->  a pointer to the launch's dynamic shared memory
//   [=] { return cache[i]; }                  ->  [=, &cache] { ... } (lambda_captures.hpp)
//   __constant__ float c[4];                  ->  file-local storage, and `c` a const reference to it
// Everything else, including line markers and line breaks, is kept, so that
// diagnostics still name the user's file and line.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>

namespace cusim::cc {

// A construct the rewriter cannot translate. The rewriter fills in where it
// is: the user's file and line (from the line markers) and the column.
struct rewrite_error : std::runtime_error {
  explicit rewrite_error(const std::string& message, std::string in_file = {}, unsigned long at_line = 0,
                         unsigned long at_column = 0)
      : std::runtime_error(message), file(std::move(in_file)), line(at_line), column(at_column) {}
  std::string file;
  unsigned long line;
  unsigned long column;
};

class front_end_lookup;

// `marks`: what clang's AST says of the uses of __shared__ variables and of
// launch callees (front_end_marks.hpp), or null. `marks_would_matter`: set
// to whether such marks could change the text (without them: whether they
// are worth waiting for).
std::string rewrite_translation_unit(const std::string& source, front_end_lookup* marks = nullptr,
                                     bool* marks_would_matter = nullptr);

}  // namespace cusim::cc
