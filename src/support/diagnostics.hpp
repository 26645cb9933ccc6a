// How cusim talks to the user: every message starts with "cusim: " and goes
// to stderr in one write, so lines from several workers never interleave.
#pragma once
#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace cusim::detail {

void write_diagnostic(std::string_view line);

// A report to the user (an error in their program, a refused launch, ...).
template <class... Args>
void report(fmt::format_string<Args...> format, Args&&... args) {
  write_diagnostic(fmt::format(format, std::forward<Args>(args)...));
}

// Where an offset lies against a region of `size` bytes, for reports of bad
// accesses: "12 bytes into <region>" or "4 bytes after <region>".
std::string place_in(std::size_t offset, std::size_t size, std::string_view region);

// A condition cusim cannot continue from (out of address space, ...).
[[noreturn]] void fatal_message(std::string_view message);
template <class... Args>
[[noreturn]] void fatal(fmt::format_string<Args...> format, Args&&... args) {
  fatal_message(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace cusim::detail

// An internal invariant. Failing it is a bug in cusim, never in user code.
#define CUSIM_ASSERT(cond, ...)                                                                   \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      ::cusim::detail::fatal("internal error at {}:{}: {} ({})", __FILE__, __LINE__, #cond,       \
                             ::fmt::format(__VA_ARGS__));                                         \
    }                                                                                             \
  } while (0)
