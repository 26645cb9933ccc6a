// The clang front end's source fixes (facts_source.hpp).
#include "facts_source.hpp"

#include <cctype>

#include "text_scan.hpp"

namespace cusim::cc {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

// Where the declaration holding the decl-specifier at `at` starts on its
// line: back over specifier words and blanks, to the first character after
// `;`, `{`, `}`, `)`, `:` or the line's start.
std::size_t declaration_start(std::string_view text, std::size_t at) {
  std::size_t start = at;
  while (start > 0) {
    const char c = text[start - 1];
    if (!is_space(c) && !is_ident_char(c)) break;
    --start;
  }
  while (start < at && is_space(text[start])) ++start;
  return start;
}

}  // namespace

std::string facts_source_fixes(std::string_view text) {
  std::string fixed;
  for (std::size_t at = 0;;) {
    const std::size_t found = find_word(text.substr(at), "__shared__");
    if (found == std::string_view::npos) break;
    const std::size_t shared = at + found;
    at = shared + 10;
    std::size_t attribute = at;
    while (attribute < text.size() && is_space(text[attribute])) ++attribute;
    if (attribute == at || text.substr(attribute, 7) != "alignas") continue;
    std::size_t open = attribute + 7;
    while (open < text.size() && is_space(text[open])) ++open;
    if (open >= text.size() || text[open] != '(') continue;
    const std::size_t close = closing_bracket(text, open, '(', ')');
    if (close == std::string_view::npos) continue;
    const std::string_view specifier = text.substr(attribute, close + 1 - attribute);
    if (specifier.find('\n') != std::string_view::npos) continue;  // lines must stay where they are
    const std::size_t start = declaration_start(text, shared);
    // [start, attribute) = "static __shared__ " becomes, after the alignas,
    // "static __shared__" and one blank: the same length.
    if (fixed.empty()) fixed.assign(text);
    std::string moved(specifier);
    moved += ' ';
    moved.append(text.substr(start, attribute - start - 1));
    fixed.replace(start, moved.size(), moved);
    at = close + 1;
  }
  return fixed;
}

}  // namespace cusim::cc
