#include "lambda_captures.hpp"

#include <algorithm>

#include "text_scan.hpp"

namespace cusim::cc {

namespace {

constexpr std::size_t npos = std::string_view::npos;

// The names an introducer captures explicitly (`x`, `&y`, `z = expr`), and
// whether its default is by reference.
struct introducer {
  bool all_by_reference = false;
  std::vector<std::string_view> names;
};

introducer read_introducer(std::string_view list) {
  introducer result;
  int depth = 0;
  std::size_t item_start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (i < list.size() && opens_literal(list, i)) {
      i = literal_end(list, i) - 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != ',' || depth != 0) continue;
    std::string_view item = trim(list.substr(item_start, i - item_start));
    item_start = i + 1;
    if (item == "&") result.all_by_reference = true;
    if (!item.empty() && item.front() == '&') item = trim(item.substr(1));
    std::size_t end = 0;
    while (end < item.size() && is_ident_char(item[end])) ++end;
    if (end > 0) result.names.push_back(item.substr(0, end));
  }
  return result;
}

// Whether the '(' at `at` opens a lambda's parameter list, not the
// arguments of an attribute or specifier after it (`__attribute__((...))`,
// `noexcept(...)`, a return type's `decltype(...)`).
bool opens_parameters(std::string_view text, std::size_t at) {
  const std::size_t last = at == 0 ? npos : text.find_last_not_of(" \t\n", at - 1);
  if (last == npos || !is_ident_char(text[last])) return true;
  std::size_t start = last;
  while (start > 0 && is_ident_char(text[start - 1])) --start;
  const std::string_view word = text.substr(start, last + 1 - start);
  return word != "__attribute__" && word != "noexcept" && word != "decltype" && word != "alignas" &&
         word != "requires" && word != "__declspec" && word != "throw" && word != "explicit";
}

// Where the body of the lambda whose introducer ends at `close` opens: past
// its template parameters, parameters, specifiers, attributes and return
// type; npos when the text does not go on as a lambda.
std::size_t body_open(std::string_view text, std::size_t close, std::string_view& parameters) {
  std::size_t i = text.find_first_not_of(" \t\n", close + 1);
  if (i != npos && text[i] == '<') {
    i = closing_bracket(text, i, '<', '>');
    if (i == npos) return npos;
    ++i;
  }
  bool parameters_seen = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (opens_literal(text, i)) {
      i = literal_end(text, i) - 1;
      continue;
    }
    if (c == '(' || c == '[') {
      const std::size_t end = closing_bracket(text, i, c, c == '(' ? ')' : ']');
      if (end == npos) return npos;
      if (c == '(' && !parameters_seen && opens_parameters(text, i)) {
        parameters = text.substr(i, end - i + 1);
        parameters_seen = true;
      }
      i = end;
      continue;
    }
    if (c == '{') return i;
    if (c == ';' || c == ',' || c == '}' || c == ')' || c == ']') return npos;
  }
  return npos;
}

// Whether the name at `at` is reached through an object or a scope
// (`s.tile`, `p->tile`, `ns::tile`): then it is not the shared variable.
bool is_member_access(std::string_view text, std::size_t at) {
  const std::size_t before = at == 0 ? npos : text.find_last_not_of(" \t\n", at - 1);
  if (before == npos) return false;
  if (text[before] == '.') return true;
  return before > 0 && ((text[before] == '>' && text[before - 1] == '-') || (text[before] == ':' && text[before - 1] == ':'));
}

}  // namespace

bool opens_lambda(std::string_view before, std::string_view after) {
  const std::size_t inside = after.find_first_not_of(" \t\n", 1);
  if (inside != npos && after[inside] == '[') return false;  // an attribute, `[[` or `[ [`
  // The last character that counts: not one of a preprocessor line's.
  std::size_t last = before.find_last_not_of(" \t\n");
  for (;;) {
    if (last == npos) return true;
    const std::size_t line_start = before.rfind('\n', last);
    const std::size_t first = before.find_first_not_of(" \t", line_start == npos ? 0 : line_start + 1);
    if (before[first] != '#' || line_start == npos) break;
    last = before.find_last_not_of(" \t\n", line_start);
  }
  const char c = before[last];
  if (c == '&' || c == '*') {
    // `auto& [a, b]`, `new T*[n]`: after a type, & and * belong to a declarator.
    last = last == 0 ? npos : before.find_last_not_of(" \t\n&*", last - 1);
    return last == npos || !(is_ident_char(before[last]) || before[last] == '>');
  }
  if (is_ident_char(c)) {
    std::size_t start = last;
    while (start > 0 && is_ident_char(before[start - 1])) --start;
    const std::string_view word = before.substr(start, last + 1 - start);
    return word == "return" || word == "co_return" || word == "co_yield" || word == "throw" || word == "case" ||
           word == "else" || word == "do";
  }
  return c != ')' && c != ']' && c != '>' && c != '"' && c != '\'';
}

std::optional<lambda_reading> read_lambda(std::string_view text, std::size_t open,
                                          const std::vector<std::string>& shared_names) {
  const std::size_t close = closing_bracket(text, open, '[', ']');
  if (close == npos) return std::nullopt;
  std::string_view parameters;
  const std::size_t body = body_open(text, close, parameters);
  if (body == npos) return std::nullopt;
  const std::size_t body_end = closing_bracket(text, body, '{', '}');
  if (body_end == npos) return std::nullopt;
  lambda_reading lambda{body, std::string(parameters), close, {}};
  const std::string_view list = text.substr(open + 1, close - open - 1);
  const introducer captures = read_introducer(list);
  if (captures.all_by_reference) return lambda;

  std::vector<std::string_view> added;
  for (std::size_t i = body + 1; i < body_end; ++i) {
    const char c = text[i];
    if (opens_literal(text, i)) {
      i = literal_end(text, i) - 1;
      continue;
    }
    if (!is_ident_char(c) || is_ident_char(text[i - 1])) continue;
    std::size_t end = i;
    while (end < body_end && is_ident_char(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    i = end - 1;
    const auto named = [&](const auto& names) { return std::find(names.begin(), names.end(), word) != names.end(); };
    if (!named(shared_names) || named(captures.names) || named(added) || find_word(parameters, word) != npos) continue;
    if (is_member_access(text, end - word.size())) continue;
    added.push_back(word);
  }
  for (const std::string_view name : added) {
    if (!lambda.captures.empty() || !trim(list).empty()) lambda.captures += ", ";
    lambda.captures += "&";
    lambda.captures += name;
  }
  return lambda;
}

}  // namespace cusim::cc
