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

// `__shared__ alignas(16) float tile[64];` -> `alignas(16) __shared__ float tile[64];`
void move_alignas_before_shared(std::string_view text, std::string& fixed) {
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
}

// `asm("..." :: "r"(v) "l"(p))` -> `asm("..." :: "r"(v),"l"(p))`: nvcc takes
// operands side by side, clang wants the comma. The blank before the
// second operand's constraint becomes it.
void add_commas_between_asm_operands(std::string_view text, std::string& fixed) {
  for (std::string_view word : {"asm", "__asm__", "__asm"}) {
    for (std::size_t at = 0;;) {
      const std::size_t found = find_word(text.substr(at), word);
      if (found == std::string_view::npos) break;
      at += found + word.size();
      const std::size_t open = text.find('(', at);
      if (open == std::string_view::npos || trim(text.substr(at, open - at)).find_first_not_of(
                                                  "volatile__ \t\n") != std::string_view::npos) {
        continue;
      }
      const std::size_t close = closing_bracket(text, open, '(', ')');
      if (close == std::string_view::npos) continue;
      // After the template (past the first ':'), at the statement's own depth.
      int depth = 0;
      bool operands = false;
      for (std::size_t i = open + 1; i < close; ++i) {
        if (opens_literal(text, i)) {
          i = literal_end(text, i) - 1;
          continue;
        }
        const char c = text[i];
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == ':' && depth == 0) operands = true;
        if (c != ')' || depth != 0 || !operands) continue;
        std::size_t next = i + 1;
        while (next < close && is_space(text[next])) ++next;
        if (next > i + 1 && next < close && text[next] == '"') {
          if (fixed.empty()) fixed.assign(text);
          fixed[i + 1] = ',';
        }
      }
      at = close;
    }
  }
}

// `__attribute__((__noinline__))` -> `__attribute__((noinline    ))`: the front
// end defines CUDA's __noinline__ specifier as a macro in the user's files
// (kernel_facts.cpp), which would break GCC's attribute of that name.
void spell_out_noinline_attributes(std::string_view text, std::string& fixed) {
  for (std::size_t at = 0;;) {
    const std::size_t found = find_word(text.substr(at), "__attribute__");
    if (found == std::string_view::npos) break;
    at += found + 13;
    const std::size_t open = text.find('(', at);
    if (open == std::string_view::npos || !trim(text.substr(at, open - at)).empty()) continue;
    const std::size_t close = closing_bracket(text, open, '(', ')');
    if (close == std::string_view::npos) continue;
    for (std::size_t name = at;;) {
      const std::size_t hit = find_word(text.substr(name, close - name), "__noinline__");
      if (hit == std::string_view::npos) break;
      name += hit;
      if (fixed.empty()) fixed.assign(text);
      fixed.replace(name, 12, "noinline    ");
      name += 12;
    }
    at = close;
  }
}

}  // namespace

std::string facts_source_fixes(std::string_view text) {
  std::string fixed;
  move_alignas_before_shared(text, fixed);
  add_commas_between_asm_operands(text, fixed);
  spell_out_noinline_attributes(text, fixed);
  return fixed;
}

}  // namespace cusim::cc
