// What a pointer is (cudaPointerGetAttributes), page-locking the program's
// own memory (cudaHostRegister), peer access between emulated devices, and
// device flags.
#include <atomic>
#include <mutex>
#include <set>
#include <utility>

#include <cuda_runtime_api.h>
#include <cusim/detail/device_heap.hpp>
#include <cusim/profile.hpp>

#include "api/streams.hpp"
#include "memory/allocations.hpp"
#include "runtime/errors.hpp"

using namespace cusim::detail;

namespace {
std::atomic<unsigned int> device_flags{0};

// Peer access enabled, as (device, peer) pairs. All emulated devices share
// the host's memory, so access works either way; the calls keep CUDA's
// bookkeeping and errors (measured on two H200s).
struct peer_table {
  std::mutex mutex;
  std::set<std::pair<int, int>> enabled;
};
peer_table& peers() {
  static auto& t = *new peer_table;  // never destroyed: see api/device_queue.hpp
  return t;
}
}

extern "C" {

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return set_error(cudaErrorInvalidValue);
  // Plain host memory: unregistered, not an error (CUDA 11 and later), its
  // host pointer itself (as an H100 answers).
  *attributes = cudaPointerAttributes{cudaMemoryTypeUnregistered, -2, nullptr, const_cast<void*>(ptr)};
  void* p = const_cast<void*>(ptr);
  if (in_device_heap(ptr)) {
    *attributes = {cudaMemoryTypeDevice, current_device(), p, nullptr};
    return cudaSuccess;
  }
  const auto a = find_allocation(ptr);
  if (!a) return cudaSuccess;
  switch (a->kind) {
    case memory_kind::device: *attributes = {cudaMemoryTypeDevice, a->device, p, nullptr}; break;
    case memory_kind::managed: *attributes = {cudaMemoryTypeManaged, a->device, p, p}; break;
    case memory_kind::pinned_host:
    case memory_kind::registered_host: *attributes = {cudaMemoryTypeHost, a->device, p, p}; break;
  }
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  if (cudaError_t e = context_error()) return e;
  constexpr unsigned int known = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                                 cudaHostRegisterReadOnly;
  if (ptr == nullptr || size == 0 || (flags & ~known) != 0) return set_error(cudaErrorInvalidValue);
  if (!register_host_range(ptr, size)) return set_error(cudaErrorHostMemoryAlreadyRegistered);
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  if (cudaError_t e = context_error()) return e;
  if (!unregister_host_range(ptr)) return set_error(cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  if (pDevice == nullptr || flags != 0) return set_error(cudaErrorInvalidValue);
  const auto a = find_allocation(pHost);
  // Unified addressing: mapped host memory has the same address on the device.
  if (!a || (a->kind != memory_kind::pinned_host && a->kind != memory_kind::registered_host &&
             a->kind != memory_kind::managed)) {
    return set_error(cudaErrorInvalidValue);
  }
  *pDevice = pHost;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return set_error(cudaErrorInvalidValue);
  if (!valid_device(device) || !valid_device(peerDevice)) return set_error(cudaErrorInvalidDevice);
  *canAccessPeer = device != peerDevice ? 1 : 0;  // a device is not its own peer
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (flags != 0) return set_error(cudaErrorInvalidValue);
  if (!valid_device(peerDevice)) return set_error(cudaErrorInvalidDevice);
  // A device cannot be its own peer (an H100 alone answers so, and so do two H200s).
  if (peerDevice == current_device()) return set_error(cudaErrorPeerAccessUnsupported);
  std::lock_guard lock(peers().mutex);
  if (!peers().enabled.emplace(current_device(), peerDevice).second) {
    return set_error(cudaErrorPeerAccessAlreadyEnabled);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  if (!valid_device(peerDevice)) return set_error(cudaErrorInvalidDevice);
  std::lock_guard lock(peers().mutex);
  if (peers().enabled.erase({current_device(), peerDevice}) == 0) return set_error(cudaErrorPeerAccessNotEnabled);
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if ((flags & ~unsigned(cudaDeviceMask)) != 0) return set_error(cudaErrorInvalidValue);
  device_flags.store(flags);
  return cudaSuccess;
}

// Shared memory banks are 4 bytes wide from sm_50 on; the setting is
// accepted and has no effect, as on those GPUs.
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
  if (pConfig == nullptr) return set_error(cudaErrorInvalidValue);
  *pConfig = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return set_error(cudaErrorInvalidValue);
  // Host memory is always mappable (unified addressing).
  *flags = device_flags.load() | cudaDeviceMapHost;
  return cudaSuccess;
}

}  // extern "C"
