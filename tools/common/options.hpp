// Reading "tool [options] [--] program [args...]" command lines, for the
// tools that run programs (cusim-explore, cusim-diff).
#pragma once
#include <string>
#include <vector>

namespace cusim::tools {

class option_reader {
 public:
  // `usage` prints the problem and the tool's usage, and exits.
  option_reader(int argc, char** argv, void (*usage)(const std::string& problem));

  // The next argument before "--" (which it consumes), or false at "--" or
  // the end. An argument that is not an option may be given back, to start
  // the program's command there.
  bool next(std::string& argument);
  void give_back() { --index_; }
  // The value of the option just read (its next argument).
  std::string value(const std::string& flag);
  double number(const std::string& flag);                 // non-negative
  unsigned long long whole_number(const std::string& flag);
  // Everything after the options: the program and its arguments.
  std::vector<std::string> rest() const;

 private:
  int argc_;
  char** argv_;
  int index_ = 1;
  void (*usage_)(const std::string&);
};

}  // namespace cusim::tools
