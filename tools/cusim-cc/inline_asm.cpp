#include "inline_asm.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "ptx/ptx_program.hpp"
#include "rewrite.hpp"
#include "text_scan.hpp"

namespace cusim::cc {

namespace {

std::size_t skip_space(std::string_view text, std::size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

// Splits at `separator` outside brackets and literals.
std::vector<std::string_view> split_top_level(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (opens_literal(text, i)) {
      i = literal_end(text, i) - 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    // (At the top level `::` is two separators, the empty section between
    // them: a qualified name can only be inside an operand's parentheses.)
    if (c == separator && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// Preprocessed text may hold line markers between the literals of a
// multi-line asm string: they go.
std::string without_line_markers(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find('\n', i), text.size());
    const std::string_view line = text.substr(i, end - i);
    if (trim(line).empty() || trim(line).front() != '#') out.append(line).push_back(' ');
    i = end + 1;
  }
  return out;
}

struct asm_operand {
  std::string constraint;  // without its modifiers
  char letter;
  char access;  // '=' output, '+' read and written, 0 input
  std::string expression;
};

asm_operand read_operand(std::string_view text, bool output) {
  text = trim(text);
  if (!text.empty() && text.front() == '[') {
    throw rewrite_error("inline PTX: named asm operands ([name] \"r\"(x)) are not supported; use %0, %1, ...");
  }
  if (text.empty() || text.front() != '"') throw rewrite_error("inline PTX: an asm operand without a constraint string");
  // Adjacent literals are one constraint (`"=" "r"(x)`, as moderngpu's
  // macros paste them), as C++ makes them.
  std::size_t literal_stop = literal_end(text, 0);
  for (std::size_t next = literal_stop; next < text.size(); ++next) {
    if (text[next] == '"') next = literal_stop = literal_end(text, next);
    if (next >= text.size() || !std::isspace(static_cast<unsigned char>(text[next]))) break;
  }
  const std::string constraint = decode_string_literals(text.substr(0, literal_stop));
  const std::string_view rest = trim(text.substr(literal_stop));
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') {
    throw rewrite_error("inline PTX: the asm operand '" + std::string(text) + "' is not \"constraint\"(expression)");
  }
  asm_operand o;
  o.access = 0;
  o.letter = 0;
  for (char c : constraint) {
    if (c == '=' || c == '+') o.access = c;
    else if (c != '&') o.letter = c;
  }
  if (std::string_view("rlhcfdn").find(o.letter) == std::string_view::npos || o.letter == 0) {
    throw rewrite_error("inline PTX: the operand constraint \"" + constraint +
                        "\" (cusim takes r, l, h, c, f, d and n, as nvcc documents them)");
  }
  if (output != (o.access != 0)) {
    throw rewrite_error(output ? "inline PTX: an output operand needs \"=\" or \"+\" in its constraint (\"" + constraint + "\")"
                               : "inline PTX: an input operand's constraint \"" + constraint + "\" has \"=\" or \"+\"");
  }
  o.constraint = constraint;
  o.expression = std::string(rest.substr(1, rest.size() - 2));
  return o;
}

std::vector<asm_operand> read_operands(std::string_view section, bool output) {
  std::vector<asm_operand> operands;
  if (trim(section).empty()) return operands;
  for (std::string_view part : split_top_level(section, ',')) {
    // nvcc also takes operands written side by side without the comma
    // (`: : "r"(v) "l"(p)`, as a cuda-sample does), which GCC refuses.
    part = trim(part);
    while (!part.empty()) {
      std::size_t end = part.size();
      if (part.front() == '"') {
        const std::size_t open = part.find('(', literal_end(part, 0));
        const std::size_t close = open == std::string_view::npos ? open : closing_bracket(part, open, '(', ')');
        if (close != std::string_view::npos) end = close + 1;
      }
      operands.push_back(read_operand(part.substr(0, end), output));
      part = trim(part.substr(end));
    }
  }
  return operands;
}

}  // namespace

std::string decode_string_literals(std::string_view literals) {
  std::string out;
  for (std::size_t i = 0; i < literals.size(); ++i) {
    if (literals[i] != '"') continue;
    for (++i; i < literals.size() && literals[i] != '"'; ++i) {
      if (literals[i] != '\\' || i + 1 >= literals.size()) {
        out.push_back(literals[i]);
        continue;
      }
      const char e = literals[++i];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'a': out.push_back('\a'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'v': out.push_back('\v'); break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
          int value = 0, digits = 0;
          while (digits < 3 && i < literals.size() && literals[i] >= '0' && literals[i] <= '7') {
            value = value * 8 + (literals[i++] - '0');
            ++digits;
          }
          --i;
          out.push_back(static_cast<char>(value));
          break;
        }
        case 'x': {
          int value = 0;
          while (i + 1 < literals.size() && std::isxdigit(static_cast<unsigned char>(literals[i + 1]))) {
            const char h = literals[++i];
            value = (value * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10)) & 0xff;
          }
          out.push_back(static_cast<char>(value));
          break;
        }
        default: out.push_back(e); break;  // \\ \" \' \?
      }
    }
  }
  return out;
}

asm_translation translate_inline_asm(std::string_view text, std::size_t at, const std::string& file_literal,
                                     unsigned long line, bool refuse_unknown) {
  std::size_t i = at;
  while (i < text.size() && is_ident_char(text[i])) ++i;  // asm, __asm__, __asm
  for (;;) {
    i = skip_space(text, i);
    std::size_t word_end = i;
    while (word_end < text.size() && is_ident_char(text[word_end])) ++word_end;
    const std::string_view word = text.substr(i, word_end - i);
    if (word == "goto") throw rewrite_error("inline PTX: asm goto is not supported");
    if (word != "volatile" && word != "__volatile__" && word != "__volatile" && word != "inline") break;
    i = word_end;
  }
  if (i >= text.size() || text[i] != '(') throw rewrite_error("an asm statement without '(' after asm");
  const std::size_t close = closing_bracket(text, i, '(', ')');
  if (close == std::string_view::npos) throw rewrite_error("an asm statement without its ')'");
  const std::string body = without_line_markers(text.substr(i + 1, close - i - 1));
  const auto sections = split_top_level(body, ':');
  if (sections.size() > 4) throw rewrite_error("inline PTX: asm goto labels are not supported");

  const std::string_view template_literals = trim(sections[0]);
  if (template_literals.empty() || template_literals.front() != '"') {
    throw rewrite_error("inline PTX: the asm template is not a string literal");
  }
  const std::string ptx_text = decode_string_literals(template_literals);
  const cusim::detail::ptx::program parsed = cusim::detail::ptx::parse(ptx_text);
  if (!parsed.error.empty() && refuse_unknown) {
    throw rewrite_error("inline PTX: cusim does not run " + parsed.error +
                        " (docs/inline-ptx.md lists the instructions and forms it runs)");
  }
  std::vector<asm_operand> operands = read_operands(sections.size() > 1 ? sections[1] : "", true);
  const std::vector<asm_operand> inputs = read_operands(sections.size() > 2 ? sections[2] : "", false);
  operands.insert(operands.end(), inputs.begin(), inputs.end());
  if (parsed.error.empty() && parsed.asm_operands > operands.size()) {
    throw rewrite_error("inline PTX: the template uses %" + std::to_string(parsed.asm_operands - 1) + " but the asm statement has " +
                        std::to_string(operands.size()) + " operands");
  }

  std::string out = "{ static ::cusim::detail::ptx::statement __cusim_asm{" + std::string(template_literals) + ", " +
                    file_literal + ", " + std::to_string(line) + "}; ";
  if (operands.empty()) {
    out += "::cusim::detail::ptx::run(__cusim_asm, nullptr, 0); }";
  } else {
    out += "::cusim::detail::ptx::operand_slot __cusim_asm_operands[] = {";
    for (std::size_t n = 0; n < operands.size(); ++n) {
      const asm_operand& o = operands[n];
      const char* maker = o.access == '=' ? "output" : o.access == '+' ? "in_out" : "input";
      out += std::string(n == 0 ? "" : ", ") + "::cusim::detail::ptx::" + maker + "<'" + o.letter + "'>(" +
             o.expression + ")";
    }
    out += "}; ::cusim::detail::ptx::run(__cusim_asm, __cusim_asm_operands, " + std::to_string(operands.size()) + "); }";
  }

  std::size_t end = close + 1;
  const std::size_t after = skip_space(text, end);
  if (after < text.size() && text[after] == ';' &&
      text.substr(end, after - end).find('\n') == std::string_view::npos) {
    end = after + 1;
  }
  // Keep the lines that follow where they were.
  out.append(static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(at),
                                                 text.begin() + static_cast<std::ptrdiff_t>(end), '\n')),
             '\n');
  return {end, std::move(out)};
}

}  // namespace cusim::cc
