#include "json.hpp"

#include <cctype>

namespace trace_check {

namespace {

class reader {
 public:
  explicit reader(std::string_view text) : text_(text) {}

  json document() {
    json value = next_value();
    skip_space();
    if (at_ != text_.size()) fail("text after the document");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(at_));
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t')) {
      ++at_;
    }
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool take_word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  json next_value() {
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    json value;
    const char c = text_[at_];
    if (c == '{') {
      value.kind = json::type::object;
      ++at_;
      if (take('}')) return value;
      do {
        skip_space();
        std::string key = next_string();
        expect(':');
        if (!value.members.emplace(std::move(key), next_value()).second) fail("a repeated key");
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      value.kind = json::type::array;
      ++at_;
      if (take(']')) return value;
      do value.items.push_back(next_value());
      while (take(','));
      expect(']');
    } else if (c == '"') {
      value.kind = json::type::string;
      value.text = next_string();
    } else if (take_word("true") || take_word("false")) {
      value.kind = json::type::boolean;
      value.flag = c == 't';
    } else if (take_word("null")) {
      value.kind = json::type::null;
    } else {
      value.kind = json::type::number;
      value.text = next_number();
    }
    return value;
  }

  std::string next_string() {
    if (at_ >= text_.size() || text_[at_] != '"') fail("expected a string");
    ++at_;
    std::string out;
    while (true) {
      if (at_ >= text_.size()) fail("an unterminated string");
      const char c = text_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) fail("an unterminated escape");
      const char e = text_[at_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (at_ + 4 > text_.size()) fail("a short \\u escape");
          for (int i = 0; i < 4; ++i) {
            if (!std::isxdigit(static_cast<unsigned char>(text_[at_ + i]))) fail("a bad \\u escape");
          }
          out += '?';  // the checker never needs the character itself
          at_ += 4;
          break;
        }
        default: fail("an unknown escape");
      }
    }
  }

  std::string next_number() {
    const std::size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    const std::size_t digits = at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ == digits) fail("expected a value");
    if (text_[digits] == '0' && at_ - digits > 1) fail("a number with a leading zero");
    if (at_ < text_.size() && text_[at_] == '.') {
      const std::size_t fraction = ++at_;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      if (at_ == fraction) fail("a number without digits after its point");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      const std::size_t exponent = at_;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      if (at_ == exponent) fail("a number without exponent digits");
    }
    return std::string(text_.substr(start, at_ - start));
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

json parse_json(std::string_view text) { return reader(text).document(); }

long long micros_to_nanos(const std::string& number) {
  const std::size_t point = number.find('.');
  const std::string whole = number.substr(0, point);
  std::string fraction = point == std::string::npos ? "" : number.substr(point + 1);
  if (whole.empty() || whole[0] == '-' || number.find_first_of("eE") != std::string::npos || fraction.size() > 3) {
    throw std::runtime_error("a time that is not a plain count of microseconds to the nanosecond: " + number);
  }
  fraction.resize(3, '0');
  return std::stoll(whole) * 1000 + std::stoll(fraction);
}

}  // namespace trace_check
