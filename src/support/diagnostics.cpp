#include "support/diagnostics.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cusim::detail {

void write_diagnostic(std::string_view line) {
  std::string text = "cusim: ";
  text.append(line);
  if (text.back() != '\n') text.push_back('\n');
  std::fflush(stdout);  // keep the program's own output in order with ours
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

void fatal_message(std::string_view message) {
  write_diagnostic(std::string("fatal: ").append(message));
  std::abort();
}

std::string place_in(std::size_t offset, std::size_t size, std::string_view region) {
  return offset < size ? fmt::format("{} bytes into {}", offset, region)
                       : fmt::format("{} bytes after {}", offset - size, region);
}

}  // namespace cusim::detail
