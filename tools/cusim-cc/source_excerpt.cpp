// The source line under an error (source_excerpt.hpp).
#include "source_excerpt.hpp"

#include <fstream>

namespace cusim::cc {

std::string source_excerpt(const std::string& file, unsigned long line, unsigned long column) {
  if (line == 0) return {};
  std::ifstream in(file, std::ios::binary);
  std::string text;
  for (unsigned long number = 1; number <= line; ++number) {
    if (!std::getline(in, text)) return {};
  }
  if (!text.empty() && text.back() == '\r') text.pop_back();
  std::string gutter = std::to_string(line);
  if (gutter.size() < 5) gutter.insert(0, 5 - gutter.size(), ' ');
  std::string excerpt = gutter + " | " + text + '\n' + std::string(gutter.size(), ' ') + " | ";
  if (column >= 1 && column <= text.size() + 1) {
    for (unsigned long i = 0; i + 1 < column; ++i) excerpt += text[i] == '\t' ? '\t' : ' ';
    excerpt += '^';
  }
  return excerpt + '\n';
}

}  // namespace cusim::cc
