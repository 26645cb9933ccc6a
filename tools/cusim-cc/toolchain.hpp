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
  // The nvcc-shaped toolkit directory (cmake/CusimToolkit.cmake); empty when
  // it was not made. Its lib64 holds libcudart_static.a, a linker script
  // naming libcusim and what it needs.
  std::string toolkit_dir;
};

toolchain locate_toolchain(const options& o);

// Under -v, what nvcc prints first (its environment: TOP, PATH, LIBRARIES...),
// which build systems read to find the toolkit (CMake's CUDA language).
void print_environment(const toolchain& t);

// Runs `command` (argv[0] looked up on PATH), echoing it under -v as nvcc
// does ("#$ command"). Returns its exit status; 127 if it could not be started.
// `error_output`: where its standard error goes instead of cusim-cc's.
int run_command(const options& o, const std::vector<std::string>& command, std::string* error_output = nullptr);

}  // namespace cusim::cc
