// cusim-cc's command line: nvcc's options, read into what the driver does.
#pragma once
#include <string>
#include <vector>

namespace cusim::cc {

// -M/-MM: write dependencies instead of compiling; -MD/-MMD: write them while compiling.
enum class dependency_mode { none, only, with_compile };

// --check=race: built with ThreadSanitizer, linked with libcusim-race;
// --check=memory: built with AddressSanitizer, linked with libcusim-memcheck.
enum class check_kind { none, race, memory, banks, init };

struct options {
  std::vector<std::string> inputs;
  std::string output;
  bool compile_only = false;     // -c, -dc
  bool preprocess_only = false;  // -E: print the rewritten translation unit
  bool make_static_library = false;  // -lib
  bool make_shared_library = false;  // -shared
  bool verbose = false;
  bool dry_run = false;
  bool keep = false;
  bool treat_as_cu = false;  // -x cu
  bool line_info = false;    // -lineinfo: line tables for reports (main.cpp: -g1)
  bool device_link = false;  // -dlink: nvcc's device-link step, an empty object here
  // -forward-unknown-to-host-compiler: options cusim-cc does not know go to
  // the host compiler (CMake passes it) instead of being refused.
  bool forward_unknown = false;
  std::string host_compiler;  // -ccbin; empty: CUSIM_CXX, else the one cusim was built with
  std::string std_flag = "-std=c++20";
  // The standard the source was written for (its -std, nvcc's default
  // C++17 without one), as __cplusplus would spell it: the source is compiled
  // as C++20, and cuda_runtime.h hides what C++20 adds to the global
  // namespace from older sources.
  long source_cplusplus = 201703L;
  std::string arch;  // "80" from -arch=sm_80

  dependency_mode dependencies = dependency_mode::none;
  bool dependencies_include_system = true;  // -M/-MD; false for -MM/-MMD
  bool dependency_phony_targets = false;    // -MP
  std::string dependency_file;              // -MF
  std::vector<std::string> dependency_targets;  // -MT

  // nvcc modes that change what the program sees through macros.
  bool relocatable_device_code = false;  // -rdc=true, -dc
  bool extended_lambda = false;
  bool relaxed_constexpr = false;

  check_kind check = check_kind::none;
  // --warp-mode=lockstep: threads of a block advance one memory access at a
  // time together (check/lockstep.cpp); the default, its, runs each thread
  // until it waits, as independent thread scheduling allows.
  bool lockstep = false;

  std::vector<std::string> preprocessor_flags;  // -I -D -U -isystem -include
  std::vector<std::string> compile_flags;       // -O -g -W, host compiler options
  std::vector<std::string> link_flags;     // -L -l -Xlinker
  // -Xcompiler's options, also in compile_flags: nvcc links with the host
  // compiler and gives it them too (-fopenmp needs its runtime linked).
  std::vector<std::string> host_compiler_options;
};

// What ends cusim-cc while it reads its command line: --help and
// --version (status 0, after printing), or a bad command line (status 2,
// after naming the offending option on stderr). Thrown rather than exiting,
// so that the parser can be fuzzed (tests/fuzz/options_fuzzer.cpp).
struct command_line_exit {
  int status;
};

// Reads argv; throws command_line_exit as above.
options parse_command_line(int argc, char** argv);

// Prints one line to stderr under -v.
void notice(const options& o, const std::string& what);

std::vector<std::string> split(const std::string& s, char separator);

}  // namespace cusim::cc
