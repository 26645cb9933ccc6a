// cusim-cc reading g++'s messages back: which of its errors clang's
// errors at the user's lines account for (host_diagnostics.hpp).
#include <catch2/catch.hpp>

#include "host_diagnostics.hpp"

using cusim::cc::diagnostic_line;
using cusim::cc::read_host_errors;

namespace {

// g++ 12 on a launch with one argument too many (line 9) and a plain
// error (line 5), shortened: the launch's errors are in cusim's launcher
// and in <tuple>, reached from the user's line through "required from here";
// "In file included from" comes between them.
constexpr const char* launch_and_plain_error =
    "e1.cu: In function 'void k(float*)':\n"
    "e1.cu:5:25: error: 'undeclared_name' was not declared in this scope\n"
    "    5 |   out[0] = tile[0][0] + undeclared_name;\n"
    "      |                         ^~~~~~~~~~~~~~~\n"
    "In file included from /cusim/include/cuda/cuda_runtime_api.h:12,\n"
    "                 from <command-line>:\n"
    "/cusim/include/cusim/launch.hpp: In instantiation of 'cudaError_t launch_as(Args&& ...) const':\n"
    "/cusim/include/cusim/launch.hpp:93:67:   required from 'cudaError_t operator()(Args&& ...) const'\n"
    "e1.cu:9:142:   required from here\n"
    "/cusim/include/cusim/launch.hpp:45:35: error: static assertion failed: a kernel launch must pass one argument per parameter\n"
    "/cusim/include/cusim/launch.hpp:45:35: note: the comparison reduces to '(2 == 1)'\n"
    "/cusim/include/cusim/launch.hpp:53:47: error: no matching function for call to 'std::tuple<float*>::tuple(float*&, int)'\n"
    "In file included from /cusim/include/cusim/detail/kernel_call.hpp:7,\n"
    "                 from /cusim/include/cuda/cuda_runtime_api.h:11:\n"
    "/usr/include/c++/12/tuple:888:9: note: candidate: 'template<class _Alloc> tuple(allocator_arg_t, const _Alloc&)'\n"
    "/usr/include/c++/12/tuple:829:59: error: no matching function for call to 'std::tuple<float*>::__valid_args<>() const'\n";

}  // namespace

TEST_CASE("cusim-cc host diagnostics: errors in headers count as the user's line they were instantiated from",
          "[tools][host_diagnostics][quick]") {
  const auto all = read_host_errors(launch_and_plain_error, {{"e1.cu", 5}, {"e1.cu", 9}});
  CHECK(all.errors == 4);
  CHECK(all.accounted_for == 4);
  CHECK(all.all_accounted_for());
  // Without line 9, the launcher's and <tuple>'s errors are g++'s alone.
  const auto plain_only = read_host_errors(launch_and_plain_error, {{"e1.cu", 5}});
  CHECK(plain_only.errors == 4);
  CHECK(plain_only.accounted_for == 1);
  CHECK_FALSE(plain_only.all_accounted_for());
  // The same file named another way.
  CHECK(read_host_errors(launch_and_plain_error, {{"./e1.cu", 5}, {"e1.cu", 9}}).all_accounted_for());
}

TEST_CASE("cusim-cc host diagnostics: an error at a line clang did not flag is g++'s own",
          "[tools][host_diagnostics][quick]") {
  // An instantiation's path from line 9, then a new function's group, then an
  // error in the user's file at line 12: the path does not carry over.
  const std::string output = std::string(launch_and_plain_error) +
                             "e1.cu: In function 'int main()':\n"
                             "e1.cu:12:3: error: 'nothing' was not declared in this scope\n";
  const auto reading = read_host_errors(output, {{"e1.cu", 5}, {"e1.cu", 9}});
  CHECK(reading.errors == 5);
  CHECK(reading.accounted_for == 4);
  // Nor within one group: an error in the user's file counts by its own line.
  const auto same_group = read_host_errors(std::string(launch_and_plain_error) + "e1.cu:12:3: error: x\n",
                                           {{"e1.cu", 5}, {"e1.cu", 9}});
  CHECK(same_group.accounted_for == 4);
  CHECK_FALSE(same_group.all_accounted_for());
}

TEST_CASE("cusim-cc host diagnostics: errors without a place, fatal errors, colours and no errors",
          "[tools][host_diagnostics][quick]") {
  const std::vector<diagnostic_line> line_3{{"a.cu", 3}};
  CHECK(read_host_errors("cc1plus: error: unrecognized command-line option '-fbad'\n", line_3).errors == 1);
  CHECK_FALSE(read_host_errors("cc1plus: error: unrecognized command-line option '-fbad'\n", line_3).all_accounted_for());
  CHECK(read_host_errors("a.cu:3:10: fatal error: missing.h: No such file or directory\n", line_3).all_accounted_for());
  // Warnings alone: nothing to account for, so g++'s text stays.
  CHECK_FALSE(read_host_errors("a.cu:3:1: warning: unused variable 'x'\n", line_3).all_accounted_for());
  const std::string coloured = cusim::cc::without_colours(
      "\x1b[01m\x1b[Ka.cu:3:7:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror: \x1b[m\x1b[Kinvalid conversion\n");
  CHECK(coloured == "a.cu:3:7: error: invalid conversion\n");
  CHECK(read_host_errors(coloured, line_3).all_accounted_for());
  // A path with a colon in it, and a line number too long to be one.
  CHECK(read_host_errors("dir:x/a.cu:3:7: error: y\n", {{"dir:x/a.cu", 3}}).all_accounted_for());
  CHECK(read_host_errors("a.cu:99999999999999999999:7: error: y\n", line_3).accounted_for == 0);
}

TEST_CASE("cusim-cc host diagnostics: a line clang alone flags keeps g++'s messages, and a group ends an instantiation's path",
          "[tools][host_diagnostics][quick]") {
  // clang flags line 6, which g++ takes (a launch spelt `k << < 1, 32 >> > (d)`
  // clang reads as shifts), and line 7, where both report.
  const std::string line_7_only = "v.cu: In function 'int main()':\nv.cu:7:13: error: invalid conversion\n";
  CHECK(read_host_errors(line_7_only, {{"v.cu", 7}}).all_accounted_for());
  CHECK_FALSE(read_host_errors(line_7_only, {{"v.cu", 6}, {"v.cu", 7}}).all_accounted_for());
  // A path through flagged line 6 ends in a warning; the next group's error,
  // instantiated from unflagged line 7, is g++'s own.
  const std::string stale =
      "ho.h: In instantiation of 'T* leak() [with T = int]':\n"
      "s.cu:6:13:   required from here\n"
      "ho.h:2:10: warning: address of local variable returned\n"
      "ho.h: In instantiation of 'void host_only() [with T = int]':\n"
      "s.cu:7:17:   required from here\n"
      "ho.h:3:17: error: static assertion failed\n"
      "s.cu:6:27: error: invalid conversion\n";
  const auto reading = read_host_errors(stale, {{"s.cu", 6}});
  CHECK(reading.errors == 2);
  CHECK(reading.accounted_for == 1);
}
