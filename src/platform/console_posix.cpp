// Standard error on Unix systems: one write(2) per message, so that lines
// from several threads do not interleave (platform/console.hpp). CMake
// builds this file or console_generic.cpp.
#include "platform/console.hpp"

#include <unistd.h>

namespace cusim::detail::platform {

void write_to_stderr(std::string_view text) {
  [[maybe_unused]] const ssize_t written = ::write(2, text.data(), text.size());
}

bool stderr_is_terminal() { return ::isatty(2) == 1; }

}  // namespace cusim::detail::platform
