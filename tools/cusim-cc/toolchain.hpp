// Where cusim-cc finds what it builds with: the host compiler, cusim's
// headers and the libraries a program links. Two layouts: the build tree
// (paths compiled in) and an installed prefix (paths relative to cusim-cc).
#pragma once
#include <string>
#include <vector>

#include "options.hpp"

namespace cusim::cc {

struct toolchain {
  std::string cxx;                         // host C++ compiler
  std::string cc;                          // host C compiler, for .c inputs
  std::vector<std::string> include_dirs;   // cusim's CUDA headers first
  std::vector<std::string> link_libraries; // libcusim and what it needs
  std::vector<std::string> sanitize_flags; // the sanitizer libcusim was built with
  std::vector<std::string> instrument_flags;  // compiling only (--warp-mode=lockstep's and --check=banks's hooks)
  std::vector<std::string> final_flags;       // compiling only, after the user's own (they win)
};

toolchain locate_toolchain(const options& o);

// Runs `command` (argv[0] looked up on PATH), echoing it under -v. Returns
// its exit status; 127 if it could not be started.
int run_command(const options& o, const std::vector<std::string>& command);

}  // namespace cusim::cc
