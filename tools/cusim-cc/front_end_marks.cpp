// The rewriter's side of clang's marks (front_end_marks.hpp).
#include "front_end_marks.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "text_scan.hpp"

namespace cusim::cc {

std::string canonical_source_path(std::string_view path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::path(path), error);
  if (error) return std::string(path);
  return canonical.string();
}

front_end_lookup::front_end_lookup(const front_end_marks& marks) : marks_(marks) {
  for (const auto& [line, uses] : marks.lines) {
    for (const shared_uses_on_line& on_line : uses) names_.insert(on_line.name);
  }
}

const std::string& front_end_lookup::canonical(std::string_view marker_file) {
  auto [it, fresh] = canonical_.try_emplace(std::string(marker_file));
  if (fresh) {
    // The marker writes the name as a string literal's contents.
    std::string path;
    for (std::size_t i = 0; i < marker_file.size(); ++i) {
      if (marker_file[i] == '\\' && i + 1 < marker_file.size()) ++i;
      path += marker_file[i];
    }
    it->second = canonical_source_path(path);
  }
  return it->second;
}

bool front_end_lookup::declaration_marked(std::string_view marker_file, unsigned long line, std::string_view name) {
  if (marks_.declarations.empty()) return false;
  const std::tuple<std::string, unsigned, std::string> key{canonical(marker_file), static_cast<unsigned>(line),
                                                           std::string(name)};
  return marks_.declarations.contains(key) && !excluded_.contains(key);
}

bool front_end_lookup::exclude(std::string_view marker_file, unsigned long line, std::string_view name) {
  return excluded_.insert({canonical(marker_file), static_cast<unsigned>(line), std::string(name)}).second;
}

bool front_end_lookup::is_use(std::string_view marker_file, unsigned long line, std::string_view line_text,
                               std::size_t at, std::string_view name) {
  const auto found = marks_.lines.find({canonical(marker_file), static_cast<unsigned>(line)});
  if (found == marks_.lines.end()) return false;
  for (const shared_uses_on_line& on_line : found->second) {
    if (on_line.name != name) continue;
    const auto [before, all] = count_identifier(line_text, at, name);
    // A macro expanded on the line changed what is there: no marks.
    if (all != on_line.occurrences) return false;
    return std::find(on_line.uses.begin(), on_line.uses.end(), before) != on_line.uses.end();
  }
  return false;
}

std::string_view front_end_lookup::launch_callee(std::string_view marker_file, unsigned long line,
                                                std::size_t ordinal) {
  if (marks_.launch_callees.empty()) return {};
  const auto found = marks_.launch_callees.find({canonical(marker_file), static_cast<unsigned>(line)});
  if (found == marks_.launch_callees.end() || ordinal >= found->second.size()) return {};
  return found->second[ordinal];
}

std::pair<unsigned, unsigned> count_identifier(std::string_view line_text, std::size_t at, std::string_view name) {
  unsigned before = 0, all = 0;
  for_each_identifier(line_text, 0, name, [&](std::size_t found) {
    ++all;
    if (found < at) ++before;
    return true;
  });
  return {before, all};
}

}  // namespace cusim::cc
