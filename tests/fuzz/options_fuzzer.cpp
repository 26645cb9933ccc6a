// libFuzzer entry point for cusim-cc's command-line parser: the input is a
// command line, one argument per line (or NUL-separated). Refusing a
// command line (command_line_exit, after a message) is the parser's one way
// out; any other exception escapes on purpose, so that libFuzzer reports it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t max_arguments = 256;
  std::vector<std::string> arguments{"cusim-cc"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n' || c == '\0') {
      arguments.push_back(current);
      current.clear();
      if (arguments.size() == max_arguments) break;
    } else {
      current += c;
    }
  }
  if (!current.empty() && arguments.size() < max_arguments) arguments.push_back(current);
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    static_cast<void>(cusim::cc::parse_command_line(static_cast<int>(arguments.size()), argv.data()));
  } catch (const cusim::cc::command_line_exit&) {
  }
  return 0;
}
