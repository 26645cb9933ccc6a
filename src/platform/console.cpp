#include "platform/console.hpp"

#if !defined(CUSIM_PLATFORM_GENERIC) && (defined(__unix__) || defined(__APPLE__))
#include <unistd.h>

namespace cusim::detail::platform {

void write_to_stderr(std::string_view text) {
  [[maybe_unused]] const ssize_t written = ::write(2, text.data(), text.size());
}

bool stderr_is_terminal() { return ::isatty(2) == 1; }

}  // namespace cusim::detail::platform

#else
#include <cstdio>

namespace cusim::detail::platform {

void write_to_stderr(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

bool stderr_is_terminal() { return false; }

}  // namespace cusim::detail::platform

#endif
