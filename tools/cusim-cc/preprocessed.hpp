// The tokens of a preprocessed translation unit (the host compiler's -E
// output), with where each came from: the file and line its line markers
// name, and its bracket structure. What comparing two preprocessing passes
// of one file needs (device_pass.hpp); the rewriter scans text itself.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cusim::cc {

enum class token_kind : std::uint8_t { identifier, number, literal, punctuation, directive };

struct pp_token {
  std::uint32_t begin, end;  // offsets in the text
  std::uint32_t line;        // index into preprocessed::lines
  token_kind kind;
};

// A run of tokens on one output line (a raw string may take several): the
// unit the passes are compared in.
struct pp_line {
  std::uint32_t first_token, end_token;
  std::uint64_t hash;          // of the tokens' spellings, not of the spacing
  std::uint32_t file;          // index into preprocessed::files
  std::uint32_t source_line;   // of its first token, as the markers count
  std::string_view flags;      // the marker's system-header flags (" 3", " 3 4" or "")
};

class preprocessed {
 public:
  explicit preprocessed(std::string_view text);

  std::string_view text() const { return text_; }
  const std::vector<pp_token>& tokens() const { return tokens_; }
  const std::vector<pp_line>& lines() const { return lines_; }
  std::string_view spelling(std::size_t token) const {
    return text_.substr(tokens_[token].begin, tokens_[token].end - tokens_[token].begin);
  }
  bool is(std::size_t token, std::string_view spelling_) const { return spelling(token) == spelling_; }
  // The bracket that matches token's ( [ { or ) ] }; npos when it has none.
  std::size_t match(std::size_t token) const { return match_[token]; }
  // The innermost '{' whose braces hold `token` (for a '}', the '{' it
  // closes); npos at file scope.
  std::size_t enclosing_brace(std::size_t token) const { return enclosing_[token]; }
  // A line marker that makes what follows read as `token`'s file and line:
  // "\n# 12 \"file.cu\"\n".
  std::string marker_for(std::size_t token) const;
  // The files the line markers name (with their quotes, as written).
  const std::vector<std::string>& files() const { return files_; }
  // Whether a marker flagged file `file` a system header. Its lines may
  // carry no flag: g++ marks the tokens of a macro defined outside system
  // headers (cusim's `__host__`) as the user's.
  bool system_file(std::uint32_t file) const { return file < system_files_.size() && system_files_[file]; }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  void lex();
  std::size_t token_end(std::size_t at) const;
  void read_marker(std::string_view line);
  void match_brackets();

  std::string_view text_;
  std::vector<pp_token> tokens_;
  std::vector<pp_line> lines_;
  std::vector<std::string> files_;
  std::vector<bool> system_files_;  // by index into files_
  std::vector<std::size_t> match_, enclosing_;
  // The position the markers give for the next output line.
  std::uint32_t file_ = 0, source_line_ = 1;
  std::string_view flags_;
};

}  // namespace cusim::cc
