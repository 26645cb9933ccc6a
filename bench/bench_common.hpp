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

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench_timing.hpp"

// Stops the program with the error's text if a CUDA call fails.
#define BENCH_CHECK(call)                                                                      \
  do {                                                                                         \
    const cudaError_t bench_err_ = (call);                                                     \
    if (bench_err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(bench_err_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

// Reads the options and applies the worker count (cusim only: a GPU has none).
inline bench_options read_bench_options(int argc, char** argv) {
  const bench_options o = parse_bench_options(argc, argv);
#ifdef __CUSIM__
  cusim::set_worker_count(o.workers);
#endif
  return o;
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
