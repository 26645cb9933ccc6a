// What the clang front end (kernel_facts.hpp) changes in a file before
// parsing it: CUDA spellings nvcc accepts and clang 14 does not.
//
// `__shared__ alignas(16) float tile[64];` (cuda-samples write it): with
// __shared__ a GNU attribute for clang, the alignas after it is a C++11
// attribute in a place C++ does not allow one, an error that cost the
// whole file its facts. The alignas moves to the start of the declaration
// (`alignas(16) __shared__ float tile[64];`), where it means the same.
// Asm operands written side by side (`:: "r"(v) "l"(p)`) get their comma,
// and GCC's `__attribute__((__noinline__))` is spelled `noinline` (the
// front end makes CUDA's `__noinline__` specifier a macro in user code).
// The edits keep every line and the file's length, so that positions clang
// reports (the sites that name kernels) stay the user's.
#pragma once
#include <string>
#include <string_view>

namespace cusim::cc {

// `text` with such declarations reordered; empty when it has none.
std::string facts_source_fixes(std::string_view text);

}  // namespace cusim::cc
