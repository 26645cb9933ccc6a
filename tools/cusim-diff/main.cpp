// cusim-diff: a program's output against the one a GPU gave (a golden).
//
//   cusim-diff [--rel X] [--abs Y] [--unordered] [--env NAME=VALUE]... [--timeout S] GOLDEN -- program [args...]
//       runs the program (a cusim build) and compares its stdout and exit
//       status with GOLDEN: exit 0 when they agree, 1 with the first
//       mismatches when not, 77 when there is no golden yet.
//   cusim-diff --record GOLDEN [--note TEXT]... [--env NAME=VALUE]... [--timeout S] -- program [args...]
//       runs the program (an nvcc build, on a GPU machine) and writes what it
//       printed and how it exited to GOLDEN, with the notes (the GPU, its
//       driver, nvcc's version) in its header.
//
// A golden is text: header lines "# key: value", a line "# output:", then
// the program's stdout as it was. docs/differential-testing.md says how to
// record goldens for your own kernels.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compare.hpp"
#include "options.hpp"
#include "run_program.hpp"

namespace {

using namespace cusim::tools;

constexpr int no_golden_status = 77;  // CTest's SKIP_RETURN_CODE
constexpr std::size_t mismatches_shown = 10;

struct options {
  std::string golden;
  bool record = false;
  std::vector<std::string> notes;
  std::vector<std::string> env;  // NAME=VALUE for the program (cusim's settings)
  comparison_rules rules;
  double timeout_seconds = 300;
  std::vector<std::string> command;
};

constexpr const char* synopsis =
    "usage: cusim-diff [--rel X] [--abs Y] [--unordered] [--env NAME=VALUE]...\n"
    "                  [--timeout S] GOLDEN -- program [args...]\n"
    "       cusim-diff --record GOLDEN [--note TEXT]... [--env NAME=VALUE]...\n"
    "                  [--timeout S] -- program [args...]\n";

[[noreturn]] void usage(const std::string& problem) {
  if (!problem.empty()) std::cerr << "cusim-diff: " << problem << "\n";
  std::cerr << synopsis << "(cusim-diff --help says more)\n";
  std::exit(2);
}

[[noreturn]] void help() {
  std::cout << R"(NAME
    cusim-diff - compare a program's output with the one a GPU gave

SYNOPSIS
    cusim-diff [--rel X] [--abs Y] [--unordered] [--env NAME=VALUE]...
               [--timeout S] GOLDEN -- program [args...]
    cusim-diff --record GOLDEN [--note TEXT]... [--env NAME=VALUE]...
               [--timeout S] -- program [args...]

DESCRIPTION
    Runs the program (a cusim build) and compares its stdout and exit
    status with GOLDEN, the same program's output on a GPU: text and
    integers exactly, floating-point values exactly or within a relative
    tolerance X (--rel) or an absolute one Y (--abs), times before
    "ms"/"us" not at all. When they differ it prints the first ten
    mismatching lines, the value that differs and by how much, and the
    first lines of the program's stderr.

    --record runs the program (an nvcc build, on a GPU machine) and
    writes GOLDEN instead: "# key: value" header lines (the command, the
    notes, "# exit: STATUS"), a line "# output:", then the program's
    stdout as it was.

OPTIONS
    --rel X
        Floating-point values agree when their relative difference is at
        most X (default 0: they must print the same).
    --abs Y
        Floating-point values agree when they differ by at most Y, whatever
        their size (for results near 0).
    --unordered
        Compare the lines in any order (device printf from many blocks).
    --env NAME=VALUE
        Set a variable for the program, such as a cusim setting
        (CUSIM_REGISTERS=...); may be repeated.
    --timeout S
        Kill the program after S seconds (default 300); a program killed
        so does not agree.
    --record
        Write GOLDEN from the program's output instead of comparing.
    --note TEXT
        With --record: a header line "# TEXT", such as "recorded on: GPU,
        driver"; may be repeated. A "recorded on" note is quoted when
        the outputs are compared.
    -h, --help
        Print this help and exit.
    --
        Ends the options; the program and its arguments follow. Required.

ENVIRONMENT
    Passes its environment to the program, with the --env variables
    added: cusim's settings (docs/runtime-options.md) apply to the run.
    It reads none itself.

EXIT STATUS
    0    the outputs agree (--record: GOLDEN was written)
    1    they differ, or the program timed out
    2    a bad command line, the program could not be started, or
         (--record) GOLDEN could not be written
    77   GOLDEN does not exist (CTest's SKIP_RETURN_CODE)

EXAMPLES
    cusim-diff --rel 1e-6 tests/golden/saxpy.txt -- build/saxpy 1000000
    cusim-diff --unordered golden/hello.txt -- ./hello
    cusim-diff --record golden/saxpy.txt --note "recorded on: H100" \
        -- ./saxpy-nvcc 1000000

SEE ALSO
    docs/differential-testing.md (goldens, recording, CTest),
    docs/runtime-options.md, cusim-explore --help
)";
  std::exit(0);
}

options parse(int argc, char** argv) {
  options o;
  option_reader args(argc, argv, usage);
  for (std::string a; args.next(a);) {
    if (a == "--record") {
      o.record = true;
    } else if (a == "--note") {
      o.notes.push_back(args.value(a));
    } else if (a == "--rel") {
      o.rules.relative_tolerance = args.number(a);
    } else if (a == "--abs") {
      o.rules.absolute_tolerance = args.number(a);
    } else if (a == "--env") {
      o.env.push_back(args.value(a));
      if (o.env.back().find('=') == std::string::npos) usage("--env takes NAME=VALUE");
    } else if (a == "--unordered") {
      o.rules.unordered = true;
    } else if (a == "--timeout") {
      o.timeout_seconds = args.number(a);
    } else if (a == "-h" || a == "--help") {
      help();
    } else if (a[0] == '-') {
      usage("unknown option " + a);
    } else if (o.golden.empty()) {
      o.golden = a;
    } else {
      usage("one golden file only ('" + o.golden + "', then '" + a + "'); the program comes after --");
    }
  }
  o.command = args.rest();
  if (o.golden.empty()) usage("no golden file");
  if (o.command.empty()) usage("no program to run (after --)");
  return o;
}

struct golden {
  std::vector<std::pair<std::string, std::string>> header;
  int status = 0;
  std::string output;
};

bool read_golden(const std::string& path, golden& g) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line) && line != "# output:") {
    if (line.rfind("# ", 0) != 0) continue;
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    g.header.emplace_back(line.substr(2, colon - 2), line.substr(colon + 2));
    if (g.header.back().first == "exit") g.status = std::atoi(g.header.back().second.c_str());
  }
  std::ostringstream rest;
  rest << in.rdbuf();
  g.output = rest.str();
  return true;
}

int record(const options& o) {
  const run_result r = run_program(o.command, o.env, o.timeout_seconds);
  std::ofstream out(o.golden, std::ios::binary);
  if (!out) {
    std::cerr << "cusim-diff: cannot write " << o.golden << "\n";
    return 2;
  }
  std::vector<std::string> shown = o.command;  // the program by name: where it was built is of no interest
  shown[0] = shown[0].substr(shown[0].find_last_of('/') + 1);
  out << "# cusim-diff golden: " << quoted_command(shown) << "\n";
  for (const auto& note : o.notes) out << "# " << note << "\n";
  out << "# exit: " << (r.timed_out ? -1 : r.status) << "\n# output:\n" << r.out;
  std::cout << "cusim-diff: recorded " << o.golden << " (" << describe_exit(r) << ", " << lines_of(r.out).size()
            << " lines)\n";
  return r.timed_out ? 1 : 0;
}

int compare(const options& o) {
  golden g;
  if (!read_golden(o.golden, g)) {
    std::cout << "cusim-diff: no golden " << o.golden
              << " yet: record one on a GPU machine (cusim-diff --record; docs/differential-testing.md)\n";
    return no_golden_status;
  }
  const run_result r = run_program(o.command, o.env, o.timeout_seconds);
  const std::vector<mismatch> found = compare_outputs(g.output, r.out, o.rules);
  const bool same_exit = !r.timed_out && r.status == g.status;
  std::string recorded_on;
  for (const auto& [key, value] : g.header) {
    if (key == "recorded on") recorded_on = " (" + value + ")";
  }
  if (found.empty() && same_exit) {
    std::cout << "cusim-diff: " << quoted_command(o.command) << " agrees with the GPU" << recorded_on << ": "
              << lines_of(r.out).size() << " lines, exit " << r.status << "\n";
    return 0;
  }
  std::cout << "cusim-diff: " << quoted_command(o.command) << " differs from the GPU" << recorded_on << " ("
            << o.golden << "):\n";
  if (!same_exit) std::cout << "  exit: the GPU's " << g.status << ", cusim's " << describe_exit(r) << "\n";
  for (std::size_t i = 0; i < found.size() && i < mismatches_shown; ++i) {
    const mismatch& m = found[i];
    std::cout << "  line " << m.line << ": " << m.detail << "\n";
    if (!m.expected.empty()) std::cout << "    GPU:   " << m.expected << "\n";
    if (!m.actual.empty()) std::cout << "    cusim: " << m.actual << "\n";
  }
  if (found.size() > mismatches_shown) std::cout << "  ... " << found.size() - mismatches_shown << " more\n";
  const auto err = lines_of(r.err);
  for (std::size_t l = 0; l < err.size() && l < 5; ++l) std::cout << "  cusim's stderr: " << err[l] << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  return o.record ? record(o) : compare(o);
}
