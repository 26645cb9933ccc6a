// What every benchmark here shares: options, timing, device arrays and the
// result lines. The benchmarks are .cu programs: cusim-cc builds them (and
// nvcc can; cusim's own calls are behind __CUSIM__, which cusim's
// cuda_runtime.h defines).
//
//   <bench> [--workers N] [--repeat R] [--quick]
//
//   --workers N  worker OS threads (default 1: the ratios are per core)
//   --repeat R   timed runs after one warm-up run; the median is reported (default 5)
//   --quick      small sizes and one timed run, for CI smoke tests: the
//                results are checked, the times mean nothing
#pragma once
#include <cuda_runtime.h>
#ifdef __CUSIM__
#include <cusim/runtime.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Stops the program with the error's text if a CUDA call fails.
#define BENCH_CHECK(call)                                                                      \
  do {                                                                                         \
    const cudaError_t bench_err_ = (call);                                                     \
    if (bench_err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(bench_err_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

struct bench_options {
  unsigned int workers = 1;
  int repeat = 5;
  bool quick = false;
};

// Reads the options and applies the worker count (cusim only: a GPU has none).
inline bench_options read_bench_options(int argc, char** argv) {
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
#ifdef __CUSIM__
  cusim::set_worker_count(o.workers);
#endif
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

// Managed memory, so that the host fills and checks it directly.
template <class T>
T* device_array(std::size_t n) {
  T* p = nullptr;
  BENCH_CHECK(cudaMallocManaged(&p, n * sizeof(T)));
  return p;
}

// A launch, then the wait for it: what every timed kernel body does.
inline void finish_launch() {
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaDeviceSynchronize());
}

inline void print_header(const char* what, const bench_options& o) {
#ifdef __CUSIM__
  std::printf("# %s: cusim, %u worker(s), median of %d after a warm-up%s\n", what, o.workers, o.repeat,
              o.quick ? " (quick: small sizes)" : "");
#else
  std::printf("# %s: CUDA device, median of %d after a warm-up%s\n", what, o.repeat,
              o.quick ? " (quick: small sizes)" : "");
#endif
}

// A workload's line: its name, the native serial loop's and the kernel's
// milliseconds, time(kernel)/time(native) (lower is better), and whether
// their results agree. Returns the program's exit status.
inline int print_workload(const char* workload, double native_seconds, double kernel_seconds, bool agree) {
  std::printf("%-8s %-40s %10s %10s %8s  %s\n", "#", "workload", "native_ms", "cusim_ms", "ratio", "check");
  std::printf("%-49s %10.3f %10.3f %8.2f  %s\n", workload, native_seconds * 1e3, kernel_seconds * 1e3,
              kernel_seconds / native_seconds, agree ? "agree" : "DIFFER");
  return agree ? 0 : 1;
}

// A microbenchmark's line: its name, a cost and its unit, and whether the
// kernel's result was the expected one.
inline bool print_micro(const char* name, double value, const char* unit, bool agree) {
  std::printf("%-49s %10.2f %-20s %s\n", name, value, unit, agree ? "agree" : "DIFFER");
  return agree;
}
