// What a pointer is (cudaPointerGetAttributes), page-locking the program's
// own memory (cudaHostRegister), peers (one device has none), device flags,
// and stream-ordered allocation.
#include <atomic>

#include <cuda_runtime_api.h>
#include <cusim/detail/device_heap.hpp>

#include "api/errors.hpp"
#include "api/streams.hpp"
#include "memory/allocations.hpp"

using namespace cusim::detail;

namespace {
std::atomic<unsigned int> device_flags{0};
}

extern "C" {

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return set_error(cudaErrorInvalidValue);
  // Plain host memory: unregistered, not an error (CUDA 11 and later), its
  // host pointer itself (as an H100 answers).
  *attributes = cudaPointerAttributes{cudaMemoryTypeUnregistered, -2, nullptr, const_cast<void*>(ptr)};
  void* p = const_cast<void*>(ptr);
  if (in_device_heap(ptr)) {
    *attributes = {cudaMemoryTypeDevice, 0, p, nullptr};
    return cudaSuccess;
  }
  const auto a = find_allocation(ptr);
  if (!a) return cudaSuccess;
  switch (a->kind) {
    case memory_kind::device: *attributes = {cudaMemoryTypeDevice, 0, p, nullptr}; break;
    case memory_kind::managed: *attributes = {cudaMemoryTypeManaged, 0, p, p}; break;
    case memory_kind::pinned_host:
    case memory_kind::registered_host: *attributes = {cudaMemoryTypeHost, 0, p, p}; break;
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
  if (device != 0 || peerDevice != 0) return set_error(cudaErrorInvalidDevice);
  *canAccessPeer = 0;  // a device is not its own peer
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (flags != 0) return set_error(cudaErrorInvalidValue);
  // The only device cannot be its own peer (an H100 alone answers so).
  return set_error(peerDevice == 0 ? cudaErrorPeerAccessUnsupported : cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  return set_error(peerDevice == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
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

// Stream-ordered allocation: the memory exists at once (using it before the
// stream reaches the allocation is still a bug CUDA does not catch); the
// free waits for the stream's work before it.
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  if (cudaError_t e = check_host_stream(hStream)) return set_error(e);
  return cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(hStream)) return set_error(e);
  if (devPtr == nullptr) return cudaSuccess;
  const auto a = find_allocation(devPtr);
  if (!a || a->base != devPtr || a->kind != memory_kind::device) return set_error(cudaErrorInvalidValue);
  return enqueue(hStream, [devPtr] { release(devPtr, true, false); }, cudaGraphNodeTypeEmpty, false, "cudaFreeAsync");
}

}  // extern "C"
