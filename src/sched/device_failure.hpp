// Stopping the running grid from device code, as a GPU's fault does: the
// report names the kernel, block, thread and `file:line`, and the grid ends
// with `error` (sticky). On the host (no CUDA thread running) the process
// aborts with the report. trap() (device_api.hpp) is this with
// cudaErrorLaunchFailure.
#pragma once
#include <cstddef>
#include <utility>

#include <driver_types.h>
#include <fmt/format.h>

namespace cusim::detail {

[[noreturn]] void stop_grid(const char* what, const char* file, unsigned int line, cudaError_t error);

// stop_grid with a formatted message. The thread never returns from it, so
// the message lives in a buffer of the OS thread's own (a string on the
// heap would leak), cut at its size.
constexpr std::size_t failure_message_size = 512;
char* failure_message_buffer();
template <class... Args>
[[noreturn]] void stop_grid_with(cudaError_t error, const char* file, unsigned int line,
                                 fmt::format_string<Args...> format, Args&&... args) {
  char* message = failure_message_buffer();
  *fmt::format_to_n(message, failure_message_size - 1, format, std::forward<Args>(args)...).out = '\0';
  stop_grid(message, file, line, error);
}

}  // namespace cusim::detail
