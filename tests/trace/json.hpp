// A small JSON reader for the trace checker: the whole of RFC 8259 that a
// Chrome trace can hold, with numbers kept as their text so that
// microsecond timestamps convert to nanoseconds exactly.
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace trace_check {

struct json {
  enum class type { null, boolean, number, string, array, object } kind = type::null;
  bool flag = false;
  std::string text;  // a string's contents, or a number's digits
  std::vector<json> items;
  std::map<std::string, json> members;

  const json* find(const std::string& key) const {
    auto it = members.find(key);
    return it == members.end() ? nullptr : &it->second;
  }
};

// Throws std::runtime_error naming the offset of what is wrong.
json parse_json(std::string_view text);

// A number of microseconds ("12.345") as nanoseconds; throws when it has
// more than three decimals or is not a plain decimal.
long long micros_to_nanos(const std::string& number);

}  // namespace trace_check
