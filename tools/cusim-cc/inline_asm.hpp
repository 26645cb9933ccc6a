// `asm` statements in device code hold PTX, which the host's assembler
// cannot take. The rewriter hands each to translate_inline_asm, which checks
// the PTX against what cusim runs (src/ptx/) and replaces the statement
// with a call that runs it for the calling CUDA thread
// (include/cusim/detail/inline_ptx.hpp says what the call looks like).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace cusim::cc {

struct asm_translation {
  std::size_t end;          // just past the statement (its ';' included)
  std::string replacement;  // the same number of line breaks as the statement
};

// `text` holds an asm statement at `at` (the `asm` keyword). `file_literal`
// (a quoted C string) and `line` name where it is, for the run time's
// reports. Throws rewrite_error for operand forms it does not take, and,
// when `refuse_unknown`, for PTX outside cusim's subset, with the
// instruction (otherwise the run time reports it if the statement runs).
asm_translation translate_inline_asm(std::string_view text, std::size_t at, const std::string& file_literal,
                                     unsigned long line, bool refuse_unknown = true);

// The characters a run of C string literals ("a" "b\n") stands for.
std::string decode_string_literals(std::string_view literals);

}  // namespace cusim::cc
