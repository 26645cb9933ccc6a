// What every benchmark here shares: options, timing, device arrays.
//   <bench> [--workers N] [--repeat R]   (default: 1 worker, best of 5)
#pragma once
#include <cuda_runtime.h>
#include <cusim/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

struct bench_options {
  unsigned int workers = 1;
  int repeat = 5;
};

// Reads the options and applies the worker count.
inline bench_options read_bench_options(int argc, char** argv) {
  bench_options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--workers") == 0) o.workers = unsigned(std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--repeat") == 0) o.repeat = std::atoi(argv[i + 1]);
  }
  cusim::set_worker_count(o.workers);
  return o;
}

// The fastest of `repeat` runs of `body`, in seconds. Launches are
// asynchronous: a body that launches must synchronise before it returns.
inline double best_seconds(int repeat, const std::function<void()>& body) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

template <class T>
T* device_array(std::size_t n) {
  T* p = nullptr;
  if (cudaMallocManaged(&p, n * sizeof(T)) != cudaSuccess) {
    std::fprintf(stderr, "allocation failed\n");
    std::exit(1);
  }
  return p;
}


// One line of the results table: time(cusim) / time(native), lower is better.
inline void print_ratio(const char* workload, double native_seconds, double cusim_seconds) {
  std::printf("%-44s %12.2f %12.2f %8.2f\n", workload, native_seconds * 1e3, cusim_seconds * 1e3,
              cusim_seconds / native_seconds);
}
