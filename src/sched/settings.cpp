// Engine settings with no CUDA equivalent (include/cusim/runtime.hpp): worker
// count, resident blocks per worker, fiber stack size.
#include <cusim/runtime.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>

#include <driver_types.h>

#include "runtime/limits.hpp"
#include "support/env.hpp"

namespace cusim {

namespace {

std::atomic<unsigned int> requested_workers{0};
std::atomic<unsigned int> requested_resident{0};

}  // namespace

void set_worker_count(unsigned int workers) { requested_workers.store(workers); }

unsigned int worker_count() {
  if (unsigned int n = requested_workers.load()) return n;
  static const unsigned int from_env = static_cast<unsigned int>(
      detail::env_positive("CUSIM_WORKERS", std::max(1u, std::thread::hardware_concurrency())));
  return from_env;
}

bool one_worker_requested() {
  if (unsigned int n = requested_workers.load()) return n == 1;
  static const bool from_env = detail::env_positive("CUSIM_WORKERS", 0) == 1;
  return from_env;
}

void set_resident_blocks_per_worker(unsigned int blocks) { requested_resident.store(blocks); }

unsigned int resident_blocks_per_worker() {
  if (unsigned int n = requested_resident.load()) return n;
  static const unsigned int from_env =
      static_cast<unsigned int>(detail::env_positive("CUSIM_RESIDENT_BLOCKS", 1));
  return from_env;
}

unsigned long fiber_stack_bytes() {
  static const long from_env = detail::env_positive("CUSIM_STACK_SIZE", 0);
  if (from_env > 0) return static_cast<unsigned long>(from_env);
  std::size_t cuda_stack = 0;
  detail::read_limit(cudaLimitStackSize, cuda_stack);
  return 64 * 1024 + 16 * cuda_stack;
}

}  // namespace cusim
