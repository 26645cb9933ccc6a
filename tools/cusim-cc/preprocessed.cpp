#include "preprocessed.hpp"

#include <cctype>

namespace cusim::cc {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || (static_cast<unsigned char>(c) & 0x80);
}

bool is_encoding_prefix(std::string_view word) {
  return word == "u8" || word == "u" || word == "U" || word == "L" || word == "R" || word == "u8R" || word == "uR" ||
         word == "UR" || word == "LR";
}

constexpr std::uint64_t fnv_offset = 1469598103934665603ull, fnv_prime = 1099511628211ull;

std::uint64_t hash_bytes(std::uint64_t h, std::string_view bytes) {
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * fnv_prime;
  return (h ^ 0x1f) * fnv_prime;  // a separator: "a b" and "ab" differ
}

}  // namespace

preprocessed::preprocessed(std::string_view text) : text_(text) {
  files_.emplace_back("\"<unknown>\"");
  lex();
  match_brackets();
}

std::string preprocessed::marker_for(std::size_t token) const {
  const pp_line& line = lines_[tokens_[token].line];
  return "\n# " + std::to_string(line.source_line) + ' ' + files_[line.file] + std::string(line.flags) + '\n';
}

// Where the token that starts at `at` ends.
std::size_t preprocessed::token_end(std::size_t at) const {
  const std::size_t size = text_.size();
  auto literal_end = [&](std::size_t quote) {
    std::size_t i = quote + 1;
    while (i < size && text_[i] != text_[quote] && text_[i] != '\n') i += text_[i] == '\\' ? 2 : 1;
    return i < size && text_[i] == text_[quote] ? i + 1 : std::min(i, size);
  };
  const char c = text_[at];
  if (std::isdigit(static_cast<unsigned char>(c)) ||
      (c == '.' && at + 1 < size && std::isdigit(static_cast<unsigned char>(text_[at + 1])))) {
    std::size_t i = at + 1;
    while (i < size) {
      const char d = text_[i];
      if ((d == '+' || d == '-') && (text_[i - 1] == 'e' || text_[i - 1] == 'E' || text_[i - 1] == 'p' ||
                                     text_[i - 1] == 'P')) {
        ++i;
      } else if (d == '\'' && i + 1 < size && is_identifier_char(text_[i + 1])) {
        i += 2;  // a digit separator
      } else if (is_identifier_char(d) || d == '.') {
        ++i;
      } else {
        break;
      }
    }
    return i;
  }
  if (is_identifier_char(c)) {
    std::size_t i = at;
    while (i < size && is_identifier_char(text_[i])) ++i;
    const std::string_view word = text_.substr(at, i - at);
    if (i < size && (text_[i] == '"' || text_[i] == '\'') && is_encoding_prefix(word)) {
      if (word.back() != 'R') return literal_end(i);
      // R"delimiter( ... )delimiter"
      const std::size_t open = text_.find('(', i);
      if (open == std::string_view::npos) return size;
      const std::string close = ")" + std::string(text_.substr(i + 1, open - i - 1)) + "\"";
      const std::size_t end = text_.find(close, open);
      return end == std::string_view::npos ? size : end + close.size();
    }
    return i;
  }
  if (c == '"' || c == '\'') return literal_end(at);
  return at + 1;
}

// `# 24 "file.cu" 2 3`: the next line is line 24 of file.cu, a system header.
void preprocessed::read_marker(std::string_view line) {
  std::size_t i = 1;
  while (i < line.size() && line[i] == ' ') ++i;
  if (line.substr(i, 4) == "line") i += 4;
  while (i < line.size() && line[i] == ' ') ++i;
  std::uint32_t number = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) number = number * 10 + (line[i++] - '0');
  source_line_ = number;
  const std::size_t q1 = line.find('"', i), q2 = line.rfind('"');
  if (q1 == std::string_view::npos || q2 <= q1) return;
  const std::string name(line.substr(q1, q2 - q1 + 1));
  std::uint32_t index = 0;
  while (index < files_.size() && files_[index] != name) ++index;
  if (index == files_.size()) files_.push_back(name);
  file_ = index;
  const std::string_view rest = line.substr(q2 + 1);
  flags_ = rest.find(" 3 4") != std::string_view::npos ? " 3 4" : rest.find(" 3") != std::string_view::npos ? " 3" : "";
  if (system_files_.size() <= index) system_files_.resize(index + 1);
  if (!flags_.empty()) system_files_[index] = true;
}

void preprocessed::lex() {
  const std::size_t size = text_.size();
  bool line_start = true, line_open = false;
  auto close_line = [&] {
    if (line_open) lines_.back().end_token = static_cast<std::uint32_t>(tokens_.size());
    line_open = false;
  };
  auto open_line = [&] {
    if (line_open) return;
    const auto first = static_cast<std::uint32_t>(tokens_.size());
    lines_.push_back({first, first, fnv_offset, file_, source_line_, flags_});
    line_open = true;
  };
  for (std::size_t pos = 0; pos < size;) {
    const char c = text_[pos];
    if (c == '\n') {
      close_line();
      ++source_line_;
      line_start = true;
      ++pos;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos;
      continue;
    }
    if (c == '#' && line_start) {
      std::size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = size;
      const std::string_view line = text_.substr(pos, end - pos);
      std::size_t i = 1;
      while (i < line.size() && line[i] == ' ') ++i;
      if (i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) || line.substr(i, 4) == "line")) {
        read_marker(line);
        pos = end + 1;  // the marker's own line break does not count
        continue;
      }
      // #pragma and the like: one token, on a line of its own.
      close_line();
      open_line();
      tokens_.push_back({static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(end),
                         static_cast<std::uint32_t>(lines_.size() - 1), token_kind::directive});
      lines_.back().hash = hash_bytes(lines_.back().hash, line);
      close_line();
      pos = end;
      continue;
    }
    line_start = false;
    open_line();
    const std::size_t end = token_end(pos);
    token_kind kind = token_kind::punctuation;
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && end > pos + 1)) kind = token_kind::number;
    else if (text_[end - 1] == '"' || text_[end - 1] == '\'') kind = token_kind::literal;
    else if (is_identifier_char(c)) kind = token_kind::identifier;
    tokens_.push_back({static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(end),
                       static_cast<std::uint32_t>(lines_.size() - 1), kind});
    const std::string_view spelling = text_.substr(pos, end - pos);
    lines_.back().hash = hash_bytes(lines_.back().hash, spelling);
    for (const char s : spelling) source_line_ += s == '\n';  // a raw string's lines
    pos = end;
  }
  close_line();
}

void preprocessed::match_brackets() {
  match_.assign(tokens_.size(), npos);
  enclosing_.assign(tokens_.size(), npos);
  std::vector<std::size_t> open, braces;
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    enclosing_[i] = braces.empty() ? npos : braces.back();
    if (tokens_[i].kind != token_kind::punctuation) continue;
    const char c = text_[tokens_[i].begin];
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(i);
      if (c == '{') braces.push_back(i);
      continue;
    }
    const char opener = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '\0';
    if (opener == '\0' || open.empty() || text_[tokens_[open.back()].begin] != opener) continue;
    match_[i] = open.back();
    match_[open.back()] = i;
    open.pop_back();
    if (c == '}') braces.pop_back();
  }
}

}  // namespace cusim::cc
