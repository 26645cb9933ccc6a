// Reading g++'s diagnostics back (host_diagnostics.hpp).
#include "host_diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace cusim::cc {

namespace fs = std::filesystem;

std::string without_colours(std::string_view text) {
  std::string plain;
  plain.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      // CSI: parameters and intermediates, then one final byte in @..~.
      std::size_t end = i + 2;
      while (end < text.size() && !(text[end] >= '@' && text[end] <= '~')) ++end;
      i = end;
      continue;
    }
    plain += text[i];
  }
  return plain;
}

namespace {

// "file:line:column: rest" or "file:line: rest": the place and the rest.
struct located {
  diagnostic_line where;
  std::string_view rest;
};

std::size_t skip_digits(std::string_view text, std::size_t from) {
  while (from < text.size() && std::isdigit(static_cast<unsigned char>(text[from]))) ++from;
  return from;
}

std::optional<located> split_location(std::string_view line) {
  // The first ":digits:" that follows a non-empty file name.
  for (std::size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
    const std::size_t digits_end = skip_digits(line, colon + 1);
    const std::size_t count = digits_end - colon - 1;
    if (colon == 0 || count == 0 || count > 9 || digits_end >= line.size() || line[digits_end] != ':') continue;
    unsigned number = 0;
    for (char c : line.substr(colon + 1, count)) number = number * 10 + static_cast<unsigned>(c - '0');
    std::size_t rest = digits_end + 1;
    const std::size_t column_end = skip_digits(line, rest);
    if (column_end > rest && column_end < line.size() && line[column_end] == ':') rest = column_end + 1;
    return located{{std::string(line.substr(0, colon)), number}, line.substr(rest)};
  }
  return std::nullopt;
}

bool starts_with_error(std::string_view rest) {
  const auto text = rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
  return text.starts_with("error:") || text.starts_with("fatal error:");
}

// "   required from here", "   required from 'f()'", "   recursively required
// from ...", "   required by substitution of ...": the instantiation's path
// from the user's code to where g++ found the error.
bool instantiation_step(std::string_view rest) {
  const auto text = rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
  return text.starts_with("required from") || text.starts_with("recursively required from") ||
         text.starts_with("required by substitution");
}

// A line that opens a new group of messages: "file: In function 'f':",
// "file: In instantiation of ...:", "file: At global scope:". Not "In file
// included from ...": g++ prints that whenever a message is in another
// header than the last, inside one instantiation's messages too.
bool group_header(std::string_view line) {
  if (line.empty() || line.front() == ' ' || line.starts_with("In file included from")) return false;
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return false;
  const auto after = line.substr(colon + 2);
  return after.starts_with("In ") || after.starts_with("At global scope");
}

std::string comparable_path(const std::string& file) {
  std::error_code failed;
  fs::path resolved = fs::absolute(fs::path(file), failed);
  if (!failed) resolved = fs::weakly_canonical(resolved, failed);
  return (failed ? fs::path(file) : resolved).lexically_normal().string();
}

}  // namespace

host_errors_reading read_host_errors(std::string_view output, const std::vector<diagnostic_line>& flagged) {
  std::vector<diagnostic_line> clang_lines;
  for (const diagnostic_line& d : flagged) clang_lines.push_back({comparable_path(d.file), d.line});
  // Where a g++ location stands against clang's lines: in a file clang
  // flagged, at a line it flagged. A flagged line g++ reports at (an error,
  // or an instantiation's step) is reached: a line clang alone flags may be
  // clang's mistake.
  struct standing {
    bool in_flagged_file = false;
    bool flagged = false;
  };
  std::vector<bool> reached(clang_lines.size(), false);
  auto stand = [&](const diagnostic_line& at) {
    standing where;
    const std::string path = comparable_path(at.file);
    for (std::size_t i = 0; i < clang_lines.size(); ++i) {
      if (clang_lines[i].file != path) continue;
      where.in_flagged_file = true;
      if (clang_lines[i].line == at.line) where.flagged = reached[i] = true;
    }
    return where;
  };

  host_errors_reading reading;
  // Whether the current instantiation path passes through a flagged line;
  // it holds for every error g++ reports until the next group of messages.
  bool context_flagged = false;
  bool error_since_context = false;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    const std::string_view line = output.substr(start, end - start);
    start = end + 1;
    if (group_header(line)) {
      context_flagged = false;
      error_since_context = false;
      continue;
    }
    const auto at = split_location(line);
    if (!at) {
      // "cc1plus: error: ...", "g++: fatal error: ...": an error with no place.
      if (line.find(": error:") != std::string_view::npos || line.find(": fatal error:") != std::string_view::npos) {
        ++reading.errors;
      }
      continue;
    }
    if (instantiation_step(at->rest)) {
      if (error_since_context) context_flagged = false;
      error_since_context = false;
      if (stand(at->where).flagged) context_flagged = true;
      continue;
    }
    if (!starts_with_error(at->rest)) continue;
    ++reading.errors;
    error_since_context = true;
    // In the user's file, only its own line counts (an instantiation's
    // path may still be held from messages before); in a header, the path.
    const standing where = stand(at->where);
    if (where.in_flagged_file ? where.flagged : context_flagged) ++reading.accounted_for;
  }
  reading.all_flagged_reached = std::all_of(reached.begin(), reached.end(), [](bool r) { return r; });
  return reading;
}

}  // namespace cusim::cc
