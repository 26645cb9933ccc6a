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

std::int64_t env_positive(const char* name, std::int64_t fallback) {
  auto text = env_string(name);
  if (!text) return fallback;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value <= 0) {
    report("{}='{}' is not a positive integer; using {}", name, *text, fallback);
    return fallback;
  }
  return value;
}

}  // namespace cusim::detail
