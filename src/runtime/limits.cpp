#include "runtime/limits.hpp"

#include <array>
#include <atomic>

#include <cusim/profile.hpp>

namespace cusim::detail {

namespace {

std::atomic<bool> legacy_model{false};

// Defaults as an H100 with CUDA 13 reports them. cudaLimitDevRuntimeSyncDepth
// (3) is gone since CUDA 12 removed device-side cudaDeviceSynchronize, except
// in the legacy model (CUDA_FORCE_CDP1_IF_SUPPORTED); the driver also answers
// limit 7 (the opt-in shared memory per block).
constexpr int limit_count = 8;
bool supported(int limit) { return limit != cudaLimitDevRuntimeSyncDepth || legacy_dynamic_parallelism(); }

std::size_t default_value(int limit) {
  switch (limit) {
    case cudaLimitStackSize: return 1024;
    case cudaLimitPrintfFifoSize: return 8650752;
    case cudaLimitMallocHeapSize: return 8388608;
    case cudaLimitDevRuntimeSyncDepth: return 2;
    case cudaLimitDevRuntimePendingLaunchCount: return 2048;
    case cudaLimitMaxL2FetchGranularity: return 64;
    case cudaLimitPersistingL2CacheSize: return active_profile().major >= 9 ? 9830400 : 0;  // as measured on sm_90
    case 7: return active_profile().shared_mem_per_block_optin;
    default: return 0;
  }
}

struct limit_values {
  limit_values() {
    for (int i = 0; i < limit_count; ++i) slot[i].store(default_value(i), std::memory_order_relaxed);
  }
  std::array<std::atomic<std::size_t>, limit_count> slot;
};

std::array<std::atomic<std::size_t>, limit_count>& values() {
  static limit_values v;
  return v.slot;
}

cudaError_t check(int limit) {
  if (limit < 0 || limit >= limit_count) return cudaErrorInvalidValue;
  return supported(limit) ? cudaSuccess : cudaErrorUnsupportedLimit;
}

}  // namespace

cudaError_t read_limit(int limit, std::size_t& value) {
  if (cudaError_t e = check(limit)) return e;
  value = values()[limit].load(std::memory_order_relaxed);
  return cudaSuccess;
}

cudaError_t write_limit(int limit, std::size_t value) {
  if (cudaError_t e = check(limit)) return e;
  if (limit == 7) return cudaErrorInvalidValue;  // read-only
  if (limit == cudaLimitStackSize) value = (value + 15) / 16 * 16;
  if (limit == cudaLimitMaxL2FetchGranularity && value > 128) return cudaErrorInvalidValue;
  if (limit == cudaLimitPersistingL2CacheSize && value > std::size_t(active_profile().persisting_l2_cache_max_size)) {
    return cudaErrorInvalidValue;
  }
  values()[limit].store(value, std::memory_order_relaxed);
  return cudaSuccess;
}

bool request_legacy_dynamic_parallelism() {
  legacy_model.store(true);
  return true;
}

bool legacy_dynamic_parallelism() { return legacy_model.load(); }

void reset_limits() {
  for (int i = 0; i < limit_count; ++i) values()[i].store(default_value(i), std::memory_order_relaxed);
}

}  // namespace cusim::detail
