#include "support/env.hpp"

#include <charconv>
#include <cstdlib>

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

}  // namespace cusim::detail
