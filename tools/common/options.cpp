#include "options.hpp"

#include <cstdlib>

namespace cusim::tools {

option_reader::option_reader(int argc, char** argv, void (*usage)(const std::string& problem))
    : argc_(argc), argv_(argv), usage_(usage) {}

bool option_reader::next(std::string& argument) {
  if (index_ >= argc_) return false;
  argument = argv_[index_++];
  return argument != "--";
}

std::string option_reader::value(const std::string& flag) {
  if (index_ >= argc_) usage_(flag + " needs a value");
  return argv_[index_++];
}

double option_reader::number(const std::string& flag) {
  const std::string text = value(flag);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0)) usage_(flag + " takes a number, not '" + text + "'");
  return v;
}

unsigned long long option_reader::whole_number(const std::string& flag) {
  const std::string text = value(flag);
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') usage_(flag + " takes a whole number, not '" + text + "'");
  return v;
}

std::vector<std::string> option_reader::rest() const {
  return std::vector<std::string>(argv_ + index_, argv_ + argc_);
}

}  // namespace cusim::tools
