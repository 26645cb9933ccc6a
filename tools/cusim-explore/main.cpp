// cusim-explore: runs a cusim program under many schedules and tells apart
// the outcomes (what it printed on stdout, and how it exited), each with the
// seeds that reproduce it. A program whose result depends on the order its
// threads ran in (a race, a missing barrier) shows more than one outcome.
//
//   cusim-explore [-n N] [--policy random|pct] [--seed S] [--depth D]
//                 [--workers W] [--timeout SECONDS] [--repeat] -- program [args...]
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "options.hpp"
#include "run_program.hpp"

namespace {

using namespace cusim::tools;

struct options {
  unsigned int runs = 20;
  std::string policy = "random";
  unsigned long long first_seed = 1;
  unsigned int depth = 3;
  unsigned int workers = 1;
  double timeout_seconds = 60;
  bool repeat = false;  // every run with the first seed
  std::vector<std::string> command;
};

constexpr const char* synopsis =
    "usage: cusim-explore [-n N] [--policy random|pct] [--seed S] [--depth D]\n"
    "                     [--workers W] [--timeout SECONDS] [--repeat]\n"
    "                     [--] program [args...]\n";

[[noreturn]] void usage(const std::string& problem) {
  if (!problem.empty()) std::cerr << "cusim-explore: " << problem << "\n";
  std::cerr << synopsis << "(cusim-explore --help says more)\n";
  std::exit(2);
}

[[noreturn]] void help() {
  std::cout << R"(NAME
    cusim-explore - run a cusim program under many schedules and tell its
    outcomes apart

SYNOPSIS
    cusim-explore [-n N] [--policy random|pct] [--seed S] [--depth D]
                  [--workers W] [--timeout SECONDS] [--repeat]
                  [--] program [args...]

DESCRIPTION
    Runs the program (built with cusim) N times, each under
    CUSIM_SCHEDULE=POLICY:SEED with seeds S, S+1, ... and CUSIM_WORKERS=W,
    and reports the distinct outcomes: stdout and exit status. A program
    whose result depends on the order its threads ran in (a race, a
    missing __syncthreads) shows more than one outcome.

    For each outcome it prints how many runs gave it and their schedules,
    where its stdout first differs from the first outcome's, the first
    lines of its stderr, and the command that replays it:
        replay: CUSIM_SCHEDULE=random:2 CUSIM_WORKERS=1 ./program args

OPTIONS
    -n N
        Run the program N times (default 20).
    --policy random|pct
        The schedule policy (default random): random:SEED draws each
        choice at random; pct:SEED,DEPTH gives each thread a random
        priority and lowers the running one at DEPTH-1 random points.
    --seed S
        The first seed (default 1); later runs take S+1, S+2, ...
    --depth D
        pct's DEPTH, from 1 to 1000 (default 3); random ignores it.
    --workers W
        CUSIM_WORKERS for every run (default 1, which makes each run
        replayable).
    --timeout SECONDS
        Kill a run that takes longer (default 60); it counts as an
        outcome of its own, "timed out".
    --repeat
        Run with seed S every time: checks that a schedule replays (one
        outcome is expected).
    -h, --help
        Print this help and exit.
    --
        Ends the options. The first argument that is not an option also
        starts the program's command.

ENVIRONMENT
    Sets CUSIM_SCHEDULE and CUSIM_WORKERS for each run, in place of any
    the caller set, and passes the rest of its environment on: CUSIM_DEVICE,
    CUSIM_CHECKS and the other settings (docs/runtime-options.md) apply to
    every run. It reads none itself.

EXIT STATUS
    0    every run had the same outcome
    1    the runs had different outcomes
    2    a bad command line, or the program could not be started

EXAMPLES
    cusim-explore -n 20 -- ./reductions missing-barrier
    cusim-explore -n 50 --policy pct --depth 5 -- ./app --small
    cusim-explore -n 10 --repeat --seed 42 -- ./app   # does it replay?

SEE ALSO
    docs/debugging.md (schedules, a walk-through), docs/runtime-options.md
    (CUSIM_SCHEDULE, CUSIM_WORKERS), cusim-cc --help (--check=race)
)";
  std::exit(0);
}

options parse(int argc, char** argv) {
  options o;
  option_reader args(argc, argv, usage);
  for (std::string a; args.next(a);) {
    if (a == "-n") {
      o.runs = unsigned(args.whole_number(a));
    } else if (a == "--policy") {
      o.policy = args.value(a);
      if (o.policy != "random" && o.policy != "pct") usage("--policy is random or pct");
    } else if (a == "--seed") {
      o.first_seed = args.whole_number(a);
    } else if (a == "--depth") {
      o.depth = unsigned(args.whole_number(a));
    } else if (a == "--workers") {
      o.workers = unsigned(args.whole_number(a));
    } else if (a == "--timeout") {
      o.timeout_seconds = args.number(a);
    } else if (a == "--repeat") {
      o.repeat = true;
    } else if (a == "-h" || a == "--help") {
      help();
    } else if (a[0] == '-') {
      usage("unknown option " + a);
    } else {
      args.give_back();  // the program, without "--"
      break;
    }
  }
  o.command = args.rest();
  if (o.command.empty()) usage("no program to run");
  if (o.runs == 0 || o.workers == 0 || o.depth == 0) usage("-n, --workers and --depth must be at least 1");
  return o;
}

run_result run_once(const options& o, const std::string& schedule) {
  return run_program(o.command, {"CUSIM_SCHEDULE=" + schedule, "CUSIM_WORKERS=" + std::to_string(o.workers)},
                     o.timeout_seconds);
}

// Where two outputs first differ, as two quoted lines.
void show_difference(const std::string& first, const std::string& other) {
  const auto a = lines_of(first), b = lines_of(other);
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::cout << "  its stdout first differs at line " << i + 1 << ":\n";
  std::cout << "    outcome 1: " << (i < a.size() ? "\"" + a[i] + "\"" : "(ended)") << "\n";
  std::cout << "    this one:  " << (i < b.size() ? "\"" + b[i] + "\"" : "(ended)") << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  struct outcome {
    run_result first;
    std::vector<std::string> schedules;
  };
  std::vector<outcome> outcomes;
  std::map<std::pair<std::string, int>, std::size_t> index;  // (stdout, status) -> outcome
  for (unsigned int i = 0; i < o.runs; ++i) {
    const unsigned long long seed = o.repeat ? o.first_seed : o.first_seed + i;
    const std::string schedule =
        o.policy + ":" + std::to_string(seed) + (o.policy == "pct" ? "," + std::to_string(o.depth) : "");
    run_result r = run_once(o, schedule);
    const auto key = std::make_pair(r.out, r.timed_out ? -1 : r.status);
    auto [it, fresh] = index.emplace(key, outcomes.size());
    if (fresh) outcomes.push_back({std::move(r), {}});
    outcomes[it->second].schedules.push_back(schedule);
  }

  std::cout << "cusim-explore: " << o.runs << " runs of " << quoted_command(o.command) << " under " << o.policy
            << " schedules with " << o.workers << " worker" << (o.workers == 1 ? "" : "s") << ": "
            << outcomes.size() << " distinct outcome" << (outcomes.size() == 1 ? "" : "s") << "\n";
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const outcome& c = outcomes[k];
    std::cout << "outcome " << k + 1 << ": " << c.schedules.size() << " run" << (c.schedules.size() == 1 ? "" : "s")
              << ", " << describe_exit(c.first) << ", " << lines_of(c.first.out).size() << " lines of stdout; schedules";
    for (std::size_t s = 0; s < c.schedules.size() && s < 8; ++s) std::cout << " " << c.schedules[s];
    if (c.schedules.size() > 8) std::cout << " ...";
    std::cout << "\n";
    if (k > 0) show_difference(outcomes[0].first.out, c.first.out);
    const auto err = lines_of(c.first.err);
    for (std::size_t l = 0; l < err.size() && l < 3; ++l) std::cout << "  stderr: " << err[l] << "\n";
    std::cout << "  replay: CUSIM_SCHEDULE=" << c.schedules[0] << " CUSIM_WORKERS=" << o.workers << " "
              << quoted_command(o.command) << "\n";
  }
  return outcomes.size() == 1 ? 0 : 1;
}
