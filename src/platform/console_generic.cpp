// Standard error where cusim has no platform layer for it
// (-DCUSIM_PLATFORM=generic, other systems): the C library's stream.
// CMake builds this file or console_posix.cpp.
#include "platform/console.hpp"

#include <cstdio>

namespace cusim::detail::platform {

void write_to_stderr(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

bool stderr_is_terminal() { return false; }

}  // namespace cusim::detail::platform
