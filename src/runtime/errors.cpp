#include "runtime/errors.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include <cuda_runtime_api.h>
#include <cusim/detail/builtins.hpp>

#include "support/diagnostics.hpp"
#include "support/env.hpp"
#include "support/program_site.hpp"

namespace cusim::detail {

namespace {
thread_local cudaError_t host_last_error = cudaSuccess;

// The last error of the caller: the host thread's, or, in device code, the
// running CUDA thread's own (the device runtime keeps one per thread).
struct last_error_slot {
  static cudaError_t get() {
    if (current_thread == nullptr) return host_last_error;
    const thread_context& t = *current_thread;
    return t.last_error_thread == t.linear_tid ? static_cast<cudaError_t>(t.last_error) : cudaSuccess;
  }
  static void set(cudaError_t e) {
    if (current_thread != nullptr) {
      current_thread->last_error = e;
      current_thread->last_error_thread = current_thread->linear_tid;
    } else {
      host_last_error = e;
    }
  }
};
std::atomic<cudaError_t> sticky{cudaSuccess};
std::atomic<cudaError_t> deferred{cudaSuccess};

// A host call takes over a deferred launch error as its thread's last error.
void absorb_deferred() {
  if (current_thread != nullptr) return;
  const cudaError_t e = deferred.exchange(cudaSuccess, std::memory_order_acq_rel);
  if (e != cudaSuccess) host_last_error = e;
}
// Set before main by the checking runtimes (report_errors_by_default).
std::atomic<bool> reports_by_default{false};

// CUSIM_VERBOSE=1 reports every error; =0 none, even in a checking build.
bool verbose() {
  static const bool on = [] {
    const auto value = env_string("CUSIM_VERBOSE");
    if (value && (*value == "1" || *value == "0")) return *value == "1";
    return reports_by_default.load(std::memory_order_relaxed);
  }();
  return on;
}

// At most this many errors are reported, as compute-sanitizer's print limit
// does: a program that hits one in a loop still gets a readable report.
constexpr int report_limit = 100;
std::atomic<int> reported{0};

// Launches that failed since the program last asked for its errors
// (note_failed_launch), told at exit.
struct unasked_launch_failures {
  std::atomic<bool> any{false};  // so that asking costs a load, not the lock, when none failed
  std::mutex lock;
  cudaError_t first_error = cudaSuccess;
  std::string first_why;
  std::string first_site;
  unsigned long count = 0;
};
unasked_launch_failures& unasked() {
  static unasked_launch_failures failures;
  return failures;
}
void forget_unasked_failures() {
  unasked_launch_failures& u = unasked();
  if (!u.any.load(std::memory_order_acquire)) return;
  std::lock_guard guard(u.lock);
  u.count = 0;
  u.any.store(false, std::memory_order_release);
}
void report_unasked_failures() {
  unasked_launch_failures& u = unasked();
  std::lock_guard guard(u.lock);
  if (u.count == 0) return;
  report("warning: the kernel launch at {} failed with {} ({}), and the program exited without asking for the "
         "error (cudaGetLastError or cudaPeekAtLastError after the launch): the kernel never ran, so what the "
         "program made of its output is not the kernel's work.{}",
         u.first_site, cudaGetErrorName(u.first_error),
         u.first_why.empty() ? std::string(cudaGetErrorString(u.first_error)) : u.first_why,
         u.count > 1 ? fmt::format(" {} more launches failed unasked after it.", u.count - 1) : std::string());
}

// The name a call_site gives ("cudaMalloc", "launch_kernel") as a verbose
// line says it: the API function, or "a CUDA call" for one of cusim's own
// helpers (but for the launch).
std::string api_name(const char* function) {
  const std::string name(function);
  if (name == "launch_kernel" || name == "launch_from_host") return "a kernel launch";  // <<<...>>>, cudaLaunchKernel
  if (name == "record_device_launch") return "a kernel launch in device code";
  return name.rfind("cuda", 0) == 0 ? name : "a CUDA call";
}

// CUDA 13 does not recover a context from a fault: cudaDeviceReset succeeds,
// but every later call that needs the device fails with this.
std::atomic<bool> unavailable{false};
}  // namespace

cudaError_t set_error(cudaError_t error, call_site where) { return set_error(error, nullptr, where); }

cudaError_t set_error(cudaError_t error, const char* why, call_site where) {
  if (error == cudaSuccess) return error;
  last_error_slot::set(error);
  // cudaErrorNotReady answers a query (cudaStreamQuery, cudaEventQuery): not a mistake.
  if (verbose() && error != cudaErrorNotReady) {
    const int count = reported.fetch_add(1, std::memory_order_relaxed);
    if (count < report_limit) {
      // compute-sanitizer names the program's line that hit the error; so
      // does cusim, where the debug information places one.
      const std::string site = program_call_site();
      report("{}{} returns {}: {}", site.empty() ? std::string() : site + ": ", api_name(where.function),
             cudaGetErrorName(error), why != nullptr ? why : cudaGetErrorString(error));
    } else if (count == report_limit) {
      report("{} errors reported; further ones are not (CUSIM_VERBOSE=0 turns the reports off)", report_limit);
    }
  }
  return error;
}

void note_failed_launch(cudaError_t error, const std::string& why, const char* file, unsigned int line) {
  unasked_launch_failures& u = unasked();
  std::lock_guard guard(u.lock);
  u.any.store(true, std::memory_order_release);
  if (u.count++ > 0) return;
  u.first_error = error;
  u.first_why = why;
  u.first_site = fmt::format("{}:{}", file, line);
  static const bool registered = std::atexit(report_unasked_failures) == 0;
  static_cast<void>(registered);
}

void report_errors_by_default() { reports_by_default.store(true, std::memory_order_relaxed); }

cudaError_t sticky_error() {
  if (unavailable.load(std::memory_order_acquire)) return cudaErrorDevicesUnavailable;
  return sticky.load(std::memory_order_acquire);
}

void make_sticky(cudaError_t error) {
  cudaError_t expected = cudaSuccess;
  sticky.compare_exchange_strong(expected, error, std::memory_order_acq_rel);
}

void reset_context() {
  if (sticky.exchange(cudaSuccess, std::memory_order_acq_rel) != cudaSuccess) {
    unavailable.store(true, std::memory_order_release);
  }
}

void forget_device_fault_for_tests() {
  sticky.store(cudaSuccess, std::memory_order_release);
  unavailable.store(false, std::memory_order_release);
  host_last_error = cudaSuccess;
}

void defer_launch_error(cudaError_t error) { deferred.store(error, std::memory_order_release); }

cudaError_t take_deferred_launch_error() {
  if (current_thread != nullptr) return cudaSuccess;
  return set_error(deferred.exchange(cudaSuccess, std::memory_order_acq_rel));
}

cudaError_t context_error() { return set_error(sticky_error()); }

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaGetLastError(void) {
  // Clears the record even after a fault; calls that need the device go on
  // failing with the sticky error (measured on an H100).
  absorb_deferred();
  if (current_thread == nullptr) forget_unasked_failures();
  const cudaError_t error = last_error_slot::get();
  last_error_slot::set(cudaSuccess);
  return error;
}

cudaError_t cudaPeekAtLastError(void) {
  absorb_deferred();
  if (current_thread == nullptr) forget_unasked_failures();
  return last_error_slot::get();
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUSIM_ERROR(name, value, text) \
  case name:                           \
    return #name;
#include <cusim/detail/error_codes.inc>
#undef CUSIM_ERROR
  }
  return "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define CUSIM_ERROR(name, value, text) \
  case name:                           \
    return text;
#include <cusim/detail/error_codes.inc>
#undef CUSIM_ERROR
  }
  return "unrecognized error code";
}
}
