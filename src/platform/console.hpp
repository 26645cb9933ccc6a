// The process's standard error, the platform's part: cusim's reports and
// the progress line go there. POSIX systems write each with one write(2),
// so that lines from several threads never interleave, and can tell a
// terminal (the progress line, the watchdog's default) from a file or pipe;
// the generic fallback writes through stdio and takes stderr for a file.
#pragma once
#include <string_view>

namespace cusim::detail::platform {

// Writes `text` to standard error at once, unbuffered.
void write_to_stderr(std::string_view text);

// Whether standard error is a terminal (a person watching), not a file or pipe.
bool stderr_is_terminal();

}  // namespace cusim::detail::platform
