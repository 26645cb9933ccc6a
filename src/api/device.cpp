// The devices as their profiles describe them: count, the current one,
// properties, attributes, limits, synchronisation and reset.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <strings.h>
#include <mutex>

#include <cuda_runtime_api.h>
#include <cusim/detail/builtins.hpp>
#include <cusim/profile.hpp>

#include "api/device_queue.hpp"
#include "api/device_runtime.hpp"
#include "memory/allocations.hpp"
#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "runtime/limits.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

using namespace cusim::detail;

namespace {


void fill_properties(cudaDeviceProp& prop, const cusim::device_profile& p) {
  std::memset(&prop, 0, sizeof prop);
  const std::size_t n = std::min(p.name.size(), sizeof prop.name - 1);
  std::memcpy(prop.name, p.name.data(), n);
  std::memcpy(prop.uuid.bytes, "cusim-virtualgpu", 16);
  prop.totalGlobalMem = p.total_global_mem;
  prop.sharedMemPerBlock = p.shared_mem_per_block;
  prop.regsPerBlock = p.regs_per_block;
  prop.warpSize = 32;
  prop.memPitch = 2147483647;
  prop.maxThreadsPerBlock = p.max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    prop.maxThreadsDim[i] = p.max_block_dim[i];
    prop.maxGridSize[i] = p.max_grid_dim[i];
  }
  prop.totalConstMem = p.total_const_mem;
  prop.major = p.major;
  prop.minor = p.minor;
  prop.textureAlignment = 512;
  prop.texturePitchAlignment = 32;
  prop.multiProcessorCount = p.multiprocessor_count;
  prop.canMapHostMemory = 1;
  prop.maxTexture1D = 131072;
  prop.maxTexture2D[0] = 131072;
  prop.maxTexture2D[1] = 65536;
  prop.maxTexture3D[0] = prop.maxTexture3D[1] = prop.maxTexture3D[2] = 16384;
  prop.surfaceAlignment = 512;
  prop.concurrentKernels = 1;
  prop.ECCEnabled = p.ecc_enabled;
  prop.pciDeviceID = p.pci_device_id;
  prop.asyncEngineCount = p.async_engine_count;
  prop.unifiedAddressing = 1;
  prop.memoryBusWidth = p.memory_bus_width;
  prop.l2CacheSize = p.l2_cache_size;
  prop.persistingL2CacheMaxSize = p.persisting_l2_cache_max_size;
  prop.maxThreadsPerMultiProcessor = p.max_threads_per_multiprocessor;
  prop.streamPrioritiesSupported = 1;
  prop.globalL1CacheSupported = 1;
  prop.localL1CacheSupported = 1;
  prop.sharedMemPerMultiprocessor = p.shared_mem_per_multiprocessor;
  prop.regsPerMultiprocessor = p.regs_per_multiprocessor;
  prop.managedMemory = 1;
  prop.concurrentManagedAccess = 1;
  prop.computePreemptionSupported = 1;
  prop.canUseHostPointerForRegisteredMem = 1;
  prop.cooperativeLaunch = 1;
  prop.sharedMemPerBlockOptin = p.shared_mem_per_block_optin;
  prop.maxBlocksPerMultiProcessor = p.max_blocks_per_multiprocessor;
  prop.accessPolicyMaxWindowSize = 134217728;
  prop.reservedSharedMemPerBlock = p.reserved_shared_mem_per_block;
  prop.hostRegisterSupported = 1;
  prop.sparseCudaArraySupported = 1;
  prop.hostRegisterReadOnlySupported = 1;
  prop.timelineSemaphoreInteropSupported = 1;
  prop.memoryPoolsSupported = 1;
  prop.gpuDirectRDMASupported = 1;
  prop.gpuDirectRDMAFlushWritesOptions = 1;
  prop.gpuDirectRDMAWritesOrdering = 100;
  prop.memoryPoolSupportedHandleTypes = 9;
  prop.deferredMappingCudaArraySupported = 1;
  prop.ipcEventSupported = 1;
  prop.clusterLaunch = p.major >= 9 ? 1 : 0;
  prop.unifiedFunctionPointers = 1;
  prop.deviceNumaId = -1;
  prop.gpuPciDeviceID = p.gpu_pci_device_id;
  prop.clockRate = p.clock_rate_khz;
  prop.memoryClockRate = p.memory_clock_rate_khz;
  prop.deviceOverlap = 1;
}

bool attribute_value(int attr, const cusim::device_profile& p, int& value) {
  switch (attr) {
#define CUSIM_ATTR(name, number, expr) \
  case number:                         \
    value = static_cast<int>(expr);    \
    return true;
#define CUSIM_DRIVER_ATTR(number, expr) CUSIM_ATTR(unnamed, number, expr)
#include <cusim/detail/device_attributes.inc>
#undef CUSIM_DRIVER_ATTR
#undef CUSIM_ATTR
    default:
      return false;
  }
}

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return set_error(cudaErrorInvalidValue);
  *count = cusim::device_count();
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return set_error(cudaErrorInvalidValue);
  *device = current_device();
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  set_current_device(device);
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  fill_properties(*prop, cusim::device_profile_of(device));
  return cudaSuccess;
}

// The first device of the wished compute capability or a later one; else device 0.
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return set_error(cudaErrorInvalidValue);
  *device = 0;
  for (int d = 0; d < cusim::device_count(); ++d) {
    const cusim::device_profile& p = cusim::device_profile_of(d);
    if (p.major > prop->major || (p.major == prop->major && p.minor >= prop->minor)) {
      *device = d;
      break;
    }
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  const cusim::device_profile& p = cusim::device_profile_of(device);
  // As an H100 prints it; each further device on a bus of its own.
  std::snprintf(pciBusId, std::size_t(len), "%04X:%02X:%02X.0", 0u, unsigned(device), unsigned(p.pci_device_id));
  return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr) return set_error(cudaErrorInvalidValue);
  for (int d = 0; d < cusim::device_count(); ++d) {
    char ours[32];
    cudaDeviceGetPCIBusId(ours, sizeof ours, d);
    // With or without the domain.
    if (strcasecmp(pciBusId, ours) == 0 || strcasecmp(pciBusId, ours + 5) == 0) {
      *device = d;
      return cudaSuccess;
    }
  }
  return set_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device)) return set_error(cudaErrorInvalidDevice);
  if (!attribute_value(attr, cusim::device_profile_of(device), *value)) return set_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (cudaError_t e = context_error()) return e;
  return set_error(write_limit(limit, value));
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  return set_error(read_limit(limit, *value));
}

cudaError_t cudaDeviceSynchronize(void) {
  if (cusim::detail::current_thread != nullptr) return cusim::detail::synchronize_from_device();
  cusim::detail::trace::host_call_scope traced("cudaDeviceSynchronize");
  if (!may_wait_for_device("cudaDeviceSynchronize")) return set_error(cudaErrorNotPermitted);
  the_device().wait_all_of(current_device());
  if (cudaError_t e = context_error()) return e;
  return take_deferred_launch_error();
}

cudaError_t cudaDeviceReset(void) {
  if (!may_wait_for_device("cudaDeviceReset")) return set_error(cudaErrorNotPermitted);
  the_device().wait_all_of(current_device());
  release_all(current_device());
  forget_kernels();
  reset_limits();
  reset_context();
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return set_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return set_error(cudaErrorInvalidValue);
  // Device code asks the device runtime, which answers 6000 on an H100 with
  // CUDA 13 (measured), not the host runtime's version.
  *version = cusim::detail::current_thread != nullptr ? 6000 : CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  if (value == nullptr || attr < cudaDevP2PAttrPerformanceRank || attr > cudaDevP2PAttrOnlyPartialNativeAtomicSupported) {
    return set_error(cudaErrorInvalidValue);
  }
  // A device and itself are not a pair, as CUDA answers; cusim has no other.
  if (!valid_device(srcDevice) || !valid_device(dstDevice) || srcDevice == dstDevice) {
    return set_error(cudaErrorInvalidDevice);
  }
  *value = 0;
  return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache(void) { return context_error(); }
}
