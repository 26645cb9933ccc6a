// What cusim remembers about each kernel between launches: attributes set
// with cudaFuncSetAttribute and the static shared memory its blocks used.
#pragma once
#include <atomic>
#include <cstddef>

namespace cusim::detail {

struct kernel_info {
  // cudaFuncAttributeMaxDynamicSharedMemorySize, or unset (then the default
  // is the profile's per-block share minus the static part).
  std::atomic<std::size_t> max_dynamic_shared{0};
  std::atomic<bool> max_dynamic_shared_set{false};
  // The most static __shared__ memory one block of this kernel has used.
  // cusim learns it as blocks run, so later launches are checked up front.
  std::atomic<std::size_t> static_shared{0};
  // Cluster attributes set with cudaFuncSetAttribute.
  std::atomic<unsigned int> required_cluster[3] = {0, 0, 0};
  std::atomic<bool> non_portable_cluster_size{false};
  // cusim-cc's front end found that no thread of the kernel waits for
  // others, steps aside (atomics, fences, sleeps) or launches grids: its
  // blocks run as plain loops (include/cusim/detail/thread_loop.hpp).
  std::atomic<bool> threads_never_wait{false};

  void note_static_shared(std::size_t bytes) {
    std::size_t seen = static_shared.load(std::memory_order_relaxed);
    while (bytes > seen && !static_shared.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
    }
  }
};

// The record of `function`, created on first use. References stay valid
// until forget_kernels().
kernel_info& kernel_record(const void* function);

// The name reports give a launch's kernel: the launch's callee as written
// (`ns::k`, `k`), unless it names a pointer rather than the kernel
// (`fp<<<...>>>`, `table[i]<<<...>>>`, or Thrust's launcher, whose parameter
// is `k`): then the kernel's own, as its definition registered it. nullptr
// when neither is known. Looked up when a report needs it, not at each
// launch (the registry takes a lock).
const char* report_name(const void* kernel, const char* callee);

// cudaDeviceReset: attributes go back to their defaults.
void forget_kernels();

}  // namespace cusim::detail
