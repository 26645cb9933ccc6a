// The little C++ lexing the text-scanning passes of cusim-cc share:
// trimming, identifier characters, whole words, the extent of a string or character
// literal, bracket matching, lines, blanks before an index, and the
// occurrences of an identifier.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace cusim::cc {

inline bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `s` without the blanks (spaces, tabs, line breaks) around it.
// The identifier (or number) that starts at `at`; empty if none does.
inline std::string_view ident_in(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && is_ident_char(text[end])) ++end;
  return text.substr(at, end - at);
}

inline std::string_view trim(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t\n\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\n\r") - first + 1);
}

// Where `word` first occurs in `text` as a whole word, or npos.
inline std::size_t find_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_ident_char(text[at - 1]);
    const bool ends = at + word.size() >= text.size() || !is_ident_char(text[at + word.size()]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

// The index just past the string or character literal opening at `at`.
inline std::size_t literal_end(std::string_view text, std::size_t at) {
  const char quote = text[at];
  std::size_t i = at + 1;
  while (i < text.size() && text[i] != quote) i += text[i] == '\\' ? 2 : 1;
  return i + 1;
}

// Whether the quote at `at` opens a string or character literal, rather
// than separating digits in a number (1'000'000, 0xFF'FF).
inline bool opens_literal(std::string_view text, std::size_t at) {
  if (text[at] == '"') return true;
  if (text[at] != '\'') return false;
  std::size_t start = at;  // the token the quote would be inside: a number starts with a digit
  while (start > 0 && (is_ident_char(text[start - 1]) || text[start - 1] == '\'' || text[start - 1] == '.')) --start;
  return start == at || !std::isdigit(static_cast<unsigned char>(text[start]));
}

// The `close` bracket matching the `open` one at `at`, literals skipped;
// npos when it has none.
inline std::size_t closing_bracket(std::string_view text, std::size_t at, char open, char close) {
  int depth = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (opens_literal(text, i)) {
      i = literal_end(text, i) - 1;
      continue;
    }
    if (c == open) ++depth;
    if (c == close && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// Where the line holding index `at` of `text` starts.
inline std::size_t line_start_of(std::string_view text, std::size_t at) {
  return at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 == 0
}

// `text` as one line: its line breaks become blanks and the line markers
// among its lines are dropped. A macro from a system header that expands
// over several lines leaves markers inside one construct
// (`__launch_bounds__(Policy::BLOCK_THREADS)` in CUB); copied onto one
// line, a marker is a stray `#`.
inline std::string one_line(std::string_view text) {
  std::string line;
  line.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t first = text.find_first_not_of(" \t", at);
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (first >= end || text[first] != '#') line.append(text.substr(at, end - at));
    if (end < text.size()) line += ' ';
    at = end + 1;
  }
  return line;
}

// Where the text from `at` goes on after spaces and tabs (not past the line).
inline std::size_t skip_blanks(std::string_view text, std::size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at;
}

// Where the text before `at` ends, blanks aside (not below `floor`).
inline std::size_t skip_blanks_back(std::string_view text, std::size_t at, std::size_t floor = 0) {
  while (at > floor && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  return at;
}

// Whether the text before `at`, blanks aside, is `.` or `->`: what stands at
// `at` is a member's name.
inline bool after_member_access(std::string_view text, std::size_t at, std::size_t floor = 0) {
  const std::size_t end = skip_blanks_back(text, at, floor);
  return end > floor && (text[end - 1] == '.' || (end - floor > 1 && text.substr(end - 2, 2) == "->"));
}

// Calls visit(at) for each identifier spelt `name` in `text` from `from`,
// string and character literals skipped (a number's letters, as in 0x1f,
// are not identifiers); stops where visit returns false.
template <class Visit>
void for_each_identifier(std::string_view text, std::size_t from, std::string_view name, Visit visit) {
  for (std::size_t i = from; i < text.size();) {
    if (opens_literal(text, i)) {
      i = literal_end(text, i);
      continue;
    }
    if (!is_ident_char(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_ident_char(text[end])) ++end;
    if (!std::isdigit(static_cast<unsigned char>(text[i])) && text.substr(i, end - i) == name && !visit(i)) return;
    i = end;
  }
}

}  // namespace cusim::cc
