#include "support/env.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "support/diagnostics.hpp"

namespace cusim::detail {

std::optional<std::string> env_string(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

namespace {

std::int64_t env_at_least(const char* name, std::int64_t fallback, std::int64_t least, const char* what) {
  auto text = env_string(name);
  if (!text) return fallback;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < least) {
    report("{}='{}' is not a {} integer; using {}", name, *text, what, fallback);
    return fallback;
  }
  return value;
}

}  // namespace

std::int64_t env_positive(const char* name, std::int64_t fallback) {
  return env_at_least(name, fallback, 1, "positive");
}

std::int64_t env_nonnegative(const char* name, std::int64_t fallback) {
  return env_at_least(name, fallback, 0, "non-negative");
}

std::chrono::milliseconds env_seconds(const char* name, std::chrono::milliseconds fallback) {
  auto text = env_string(name);
  if (!text) return fallback;
  char* end = nullptr;
  const double seconds = std::strtod(text->c_str(), &end);
  if (end != text->c_str() + text->size() || !std::isfinite(seconds) || seconds < 0 || seconds > 1e9) {
    report("{}='{}' is not a number of seconds (such as 10 or 0.5); using {}", name, *text,
           seconds_text(fallback));
    return fallback;
  }
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

std::chrono::milliseconds watchdog_setting(std::chrono::milliseconds fallback) {
  return env_seconds("CUSIM_WATCHDOG", env_seconds("CUSIM_STALL_SECONDS", fallback));
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
  const double seconds = std::chrono::duration<double>(d).count();
  if (seconds >= 1) return fmt::format("{} s", static_cast<long long>(seconds));
  return fmt::format("{:.2g} s", seconds);
}

}  // namespace cusim::detail
