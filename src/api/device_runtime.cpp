#include "api/device_runtime.hpp"

#include <atomic>
#include <mutex>

#include <cuda_runtime_api.h>

#include "api/errors.hpp"
#include "api/limits.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {
std::atomic<bool> legacy_model{false};
}

bool request_legacy_dynamic_parallelism() {
  legacy_model.store(true);
  return true;
}

bool legacy_dynamic_parallelism() { return legacy_model.load(); }

cudaError_t synchronize_from_device() {
  if (!legacy_dynamic_parallelism()) {
    static std::once_flag told;
    std::call_once(told, [] {
      report("cudaDeviceSynchronize() in device code belongs to the legacy model of dynamic parallelism (CDP1), "
             "which CUDA 12 removed (nvcc 12 kept it for GPUs before sm_90 when the program is built with "
             "-DCUDA_FORCE_CDP1_IF_SUPPORTED; nvcc 13 refuses it). Build with that definition to run it in the "
             "legacy model; a CUDA 12 kernel cannot wait for its children (a tail launch, "
             "cudaStreamTailLaunch, runs after them). It returns cudaErrorNotSupported.");
    });
    return set_error(cudaErrorNotSupported);
  }
  static std::once_flag noticed;
  std::call_once(noticed, [] {
    report("notice: device-side cudaDeviceSynchronize() (built with CUDA_FORCE_CDP1_IF_SUPPORTED) is the legacy "
           "dynamic-parallelism model, deprecated since CUDA 11.6, unsupported by CUDA 12 on sm_90 and later, "
           "and gone from CUDA 13; cusim runs it as CUDA 11 did. (Shown once.)");
  });
  // Grids the host launched are at depth 0: with the default limit of 2,
  // they and their children may synchronise, their grandchildren may not.
  std::size_t sync_depth = 0;
  read_limit(cudaLimitDevRuntimeSyncDepth, sync_depth);
  if (current_thread->block->grid().depth >= sync_depth) return set_error(cudaErrorLaunchMaxDepthExceeded);
  worker::current()->wait_for_block_children();
  return cudaSuccess;
}

}  // namespace cusim::detail
