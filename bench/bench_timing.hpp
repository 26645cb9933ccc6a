// What the benchmarks' programs share that is plain C++: their options and
// the median timing. bench_common.hpp (the .cu workloads) and
// pocl/pocl_bench.cpp (the same workloads under PoCL) both use it.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct bench_options {
  unsigned int workers = 1;
  int repeat = 5;
  bool quick = false;
};

// Reads the options (usage and exit status 2 on a bad one).
inline bench_options parse_bench_options(int argc, char** argv) {
  bench_options o;
  bool repeat_given = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--workers") == 0 && has_value) {
      o.workers = unsigned(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--repeat") == 0 && has_value) {
      o.repeat = std::max(1, std::atoi(argv[++i]));
      repeat_given = true;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      o.quick = true;
    } else {
      std::fprintf(stderr, "usage: %s [--workers N] [--repeat R] [--quick]\n", argv[0]);
      std::exit(2);
    }
  }
  if (o.quick && !repeat_given) o.repeat = 1;
  return o;
}

// The median of `repeat` timed runs of `body`, in seconds, after one
// untimed warm-up run (first touches of memory, the worker threads' start).
// Launches are asynchronous: a body that launches must synchronise before it
// returns.
template <class Body>
double median_seconds(int repeat, Body&& body) {
  body();
  std::vector<double> took;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    took.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(took.begin(), took.end());
  const std::size_t mid = took.size() / 2;
  return took.size() % 2 == 1 ? took[mid] : (took[mid - 1] + took[mid]) / 2;
}

