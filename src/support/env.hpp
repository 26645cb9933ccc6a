// Reading cusim's environment variables (CUSIM_WORKERS, CUSIM_DEVICE, ...).
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace cusim::detail {

// The variable's value, or nothing when unset or empty.
std::optional<std::string> env_string(const char* name);

// A positive integer setting. A value that is not one is reported, naming the
// variable, and the default is used.
std::int64_t env_positive(const char* name, std::int64_t fallback);
// The same for a setting where 0 is allowed (often: "off").
std::int64_t env_nonnegative(const char* name, std::int64_t fallback);
// A duration given in seconds, fractions allowed ("0.25"); 0 is allowed.
std::chrono::milliseconds env_seconds(const char* name, std::chrono::milliseconds fallback);
// CUSIM_WATCHDOG (or CUSIM_STALL_SECONDS, its earlier name): how long a
// stalled kernel runs before it is reported, for the watchdog and the
// lockstep checker, each with its own default.
std::chrono::milliseconds watchdog_setting(std::chrono::milliseconds fallback);
// A duration as reports give it: "3 s", or "0.25 s" under a second.
std::string seconds_text(std::chrono::steady_clock::duration d);

}  // namespace cusim::detail
