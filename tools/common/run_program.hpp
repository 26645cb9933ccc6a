// Running a program and keeping what it printed, for the tools that judge
// programs by their output (cusim-explore, cusim-diff). Standard C++ and
// POSIX only: cusim-diff is also built on GPU machines, with nothing else.
#pragma once
#include <string>
#include <vector>

namespace cusim::tools {

struct run_result {
  std::string out, err;
  int status = 0;  // exit code, or 128 + signal
  bool timed_out = false;
};

// Runs `command` (looked up on PATH) with this process's environment plus
// `extra_env` ("NAME=value", replacing variables of the same names), killed
// after `timeout_seconds`. Exits with status 2 when it cannot be started.
run_result run_program(const std::vector<std::string>& command, const std::vector<std::string>& extra_env,
                       double timeout_seconds);

// "exit 3", "killed by signal 6", "timed out (killed)".
std::string describe_exit(const run_result& r);

std::vector<std::string> lines_of(const std::string& text);

// The command as a shell would take it back.
std::string quoted_command(const std::vector<std::string>& command);

}  // namespace cusim::tools
