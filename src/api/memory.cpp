// cudaMalloc, cudaFree, cudaMemcpy, cudaMemset and the symbol copies.
// Device memory is host memory that cusim tracks: a kernel (a fiber on this
// process) reads it directly, and copies are memcpy after the same checks a
// GPU driver makes.
#include <cstring>

#include <cuda_runtime_api.h>
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/device_heap.hpp>
#include <cusim/profile.hpp>

#include "api/device_queue.hpp"
#include "api/graph_memory.hpp"
#include "api/memory.hpp"
#include "api/streams.hpp"
#include "memory/allocations.hpp"
#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "sched/worker.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

using namespace cusim::detail;

namespace {

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

// Checks one side of a copy: device sides must lie inside a device or managed
// allocation; host sides may be any memory.
bool side_ok(const void* pointer, std::size_t count, bool must_be_device) {
  return !must_be_device || is_device_range(pointer, count);
}

}  // namespace

cudaError_t cusim::detail::check_copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                                      call_site where) {
  if (count == 0) return cudaSuccess;  // even with null pointers or a bad kind (measured)
  const auto refuse = [&](cudaError_t error, const std::string& why) { return set_error(error, why.c_str(), where); };
  if (!valid_kind(kind)) return refuse(cudaErrorInvalidMemcpyDirection, fmt::format("{} is not a cudaMemcpyKind", int(kind)));
  if (dst == nullptr || src == nullptr) return refuse(cudaErrorInvalidValue, dst == nullptr ? "the destination is null" : "the source is null");
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const auto outside = [&](const char* side, const void* p) {
    return refuse(cudaErrorInvalidValue,
                  fmt::format("the {} [{}, +{} bytes) is not inside one device allocation, as the kind says it is",
                              side, p, count));
  };
  if (!side_ok(dst, count, dst_device)) return outside("destination", dst);
  if (!side_ok(src, count, src_device)) return outside("source", src);
  if (kind == cudaMemcpyDefault) {
    // Unified addressing: either side may be anything, but a device side
    // must not run past its allocation.
    for (const void* p : {static_cast<const void*>(dst), src}) {
      auto a = find_allocation(p);
      if (a && (a->kind == memory_kind::device || a->kind == memory_kind::managed) && !is_device_range(p, count)) {
        return outside(p == dst ? "destination" : "source", p);
      }
    }
  }
  return cudaSuccess;
}

namespace {

constexpr const char* not_an_allocation =
    "the pointer is not the start of an allocation of this kind that is still live (freed already, a host or "
    "stack address, or a pointer into the middle of one)";

// `where`: the API function that allocates (for CUSIM_VERBOSE's reports).
cudaError_t allocate_into(void** ptr, std::size_t size, memory_kind kind,
                          call_site where = call_site::current()) {
  if (cudaError_t e = context_error()) return e;
  if (ptr == nullptr) return set_error(cudaErrorInvalidValue, "the pointer to store the allocation's address is null", where);
  if (size == 0) {  // as on a GPU: success, and no memory
    *ptr = nullptr;
    return cudaSuccess;
  }
  void* p = allocate(size, kind);
  if (p == nullptr) {
    *ptr = nullptr;
    return set_error(cudaErrorMemoryAllocation,
                     fmt::format("{} bytes could not be allocated", size).c_str(), where);
  }
  *ptr = p;
  return cudaSuccess;
}

}  // namespace

namespace cusim::detail {

// Host memory the driver must stage: not one of cusim's allocations.
bool pageable(const void* p) { return !find_allocation(p); }

cudaError_t memcpy_symbol(void* symbol, std::size_t symbol_size, void* buffer, std::size_t count,
                          std::size_t offset, cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream,
                          bool asynchronous) {
  if (cudaError_t e = context_error()) return e;
  if (!valid_kind(kind) || kind == cudaMemcpyHostToHost ||
      kind == (to_symbol ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice)) {
    return set_error(cudaErrorInvalidMemcpyDirection);
  }
  if (symbol == nullptr) return set_error(cudaErrorInvalidSymbol);
  if (symbol_size != 0 && (offset > symbol_size || count > symbol_size - offset)) {
    return set_error(cudaErrorInvalidValue);
  }
  if (count == 0) return cudaSuccess;
  char* at = static_cast<char*>(symbol) + offset;
  void* dst = to_symbol ? static_cast<void*>(at) : buffer;
  const void* src = to_symbol ? static_cast<const void*>(buffer) : at;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  // The synchronous forms in the NULL stream, after the work before it; the
  // asynchronous ones as cudaMemcpyAsync (pageable host memory is staged).
  const void* host_side = to_symbol ? src : dst;
  const bool wait = !asynchronous || (kind != cudaMemcpyDeviceToDevice && pageable(host_side));
  return enqueue(stream, [=] { copy_bytes(dst, src, count); }, cudaGraphNodeTypeMemcpy, wait,
                 to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol");
}

cudaError_t copy_in_stream(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream,
                           call_site where) {
  if (cudaError_t e = check_copy(dst, src, count, kind, where)) return e;
  if (count == 0) return cudaSuccess;
  // A capture records a pageable copy as a node too: it copies when the
  // graph runs, as CUDA's does.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (stream != nullptr && stream != cudaStreamLegacy) cudaStreamIsCapturing(stream, &capture);
  const bool staged = capture == cudaStreamCaptureStatusNone && kind != cudaMemcpyDeviceToDevice &&
                      (pageable(dst) || pageable(src));
  return enqueue(stream, [=] { copy_bytes(dst, src, count); }, cudaGraphNodeTypeMemcpy, staged, "cudaMemcpyAsync");
}

cudaError_t set_in_stream(void* ptr, int value, std::size_t count, cudaStream_t stream, call_site where) {
  if (count == 0) return cudaSuccess;
  if (!is_device_range(ptr, count)) {
    return set_error(cudaErrorInvalidValue,
                     fmt::format("[{}, +{} bytes) is not inside one device allocation", ptr, count).c_str(), where);
  }
  return enqueue(stream, [=] { set_bytes(ptr, value, count); }, cudaGraphNodeTypeMemset, false, "cudaMemsetAsync");
}

}  // namespace cusim::detail

extern "C" {

cudaError_t cudaMalloc(void** ptr, size_t size) {
  trace::host_call_scope traced("cudaMalloc");
  if (current_thread != nullptr) {
    // Device code allocates from the device heap.
    if (ptr == nullptr) return set_error(cudaErrorInvalidValue);
    *ptr = device_malloc(size);
    return *ptr == nullptr && size != 0 ? set_error(cudaErrorMemoryAllocation) : cudaSuccess;
  }
  return allocate_into(ptr, size, memory_kind::device);
}

cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return set_error(cudaErrorInvalidValue);
  return allocate_into(ptr, size, memory_kind::managed);
}

cudaError_t cudaMallocHost(void** ptr, size_t size) { return allocate_into(ptr, size, memory_kind::pinned_host); }

cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  constexpr unsigned int known = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if ((flags & ~known) != 0) return set_error(cudaErrorInvalidValue);
  return allocate_into(ptr, size, memory_kind::pinned_host);
}

cudaError_t cudaFree(void* ptr) {
  trace::host_call_scope traced("cudaFree");
  if (current_thread != nullptr) {
    if (ptr != nullptr && !in_device_heap(ptr)) {
      worker::current()->fail_grid(fmt::format(
          "cudaFree in device code was given {}, which {}: device code frees only the device heap's memory "
          "(malloc, new or cudaMalloc in a kernel).",
          ptr, find_allocation(ptr) ? "the host allocated (cudaMalloc on the host)" : "is not from the device heap"));
      return set_error(cudaErrorInvalidValue);
    }
    device_free(ptr);
    return cudaSuccess;
  }
  if (cudaError_t e = context_error()) return e;
  if (ptr == nullptr) return cudaSuccess;
  cudaError_t graph_error = cudaSuccess;
  // cudaFree waits for the device: work queued before it may use the memory.
  if (!may_wait_for_device("cudaFree")) return set_error(cudaErrorNotPermitted);
  the_device().wait_all();
  // A graph's allocation is freed for its graph's next launch; its memory
  // goes only when its graphs are gone.
  if (bool release = false; free_graph_allocation(ptr, "cudaFree", graph_error, release)) {
    if (graph_error != cudaSuccess) return set_error(graph_error);
    if (!release) return cudaSuccess;
  }
  if (in_device_heap(ptr)) {
    report("cudaFree on the host was given {}, which device code allocated from the device heap (malloc, new or "
           "cudaMalloc in a kernel): only device code can free it. It returns cudaErrorInvalidValue.",
           ptr);
    return set_error(cudaErrorInvalidValue);
  }
  if (!release(ptr, /*device or managed*/ true, /*pinned*/ true)) {
    address_check::explain_bad_free("cudaFree", ptr);
    return set_error(cudaErrorInvalidValue, not_an_allocation);
  }
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  if (cudaError_t e = context_error()) return e;
  if (ptr == nullptr) return cudaSuccess;
  if (!may_wait_for_device("cudaFreeHost")) return set_error(cudaErrorNotPermitted);
  the_device().wait_all();
  if (!release(ptr, false, true)) {
    address_check::explain_bad_free("cudaFreeHost", ptr);
    return set_error(cudaErrorInvalidValue, not_an_allocation);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_copy(dst, src, count, kind)) return e;
  if (count == 0) return cudaSuccess;
  // In the NULL stream, after the work before it, and synchronous.
  return enqueue(nullptr, [=] { copy_bytes(dst, src, count); }, cudaGraphNodeTypeMemcpy, true, "cudaMemcpy");
}

cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  if (cudaError_t e = context_error()) return e;
  // Asynchronous to the host, like a kernel in the NULL stream.
  return set_in_stream(ptr, value, count, nullptr);
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (cudaError_t e = context_error()) return e;
  if (free_bytes == nullptr || total_bytes == nullptr) return set_error(cudaErrorInvalidValue);
  *total_bytes = cusim::active_profile().total_global_mem;
  *free_bytes = *total_bytes - device_bytes_in_use(cusim::detail::current_device());
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  return memcpy_symbol(const_cast<void*>(symbol), 0, const_cast<void*>(src), count, offset, kind, true);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  return memcpy_symbol(const_cast<void*>(symbol), 0, dst, count, offset, kind, false);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
  return memcpy_symbol(const_cast<void*>(symbol), 0, const_cast<void*>(src), count, offset, kind, true, stream, true);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  return memcpy_symbol(const_cast<void*>(symbol), 0, dst, count, offset, kind, false, stream, true);
}

cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol) {
  if (cudaError_t e = context_error()) return e;
  if (ptr == nullptr) return set_error(cudaErrorInvalidValue);
  if (symbol == nullptr) return set_error(cudaErrorInvalidSymbol);
  *ptr = const_cast<void*>(symbol);
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  if (cudaError_t e = context_error()) return e;
  (void)size;
  (void)symbol;
  // Without the symbol's type its size is unknown; the C++ overload knows it.
  return set_error(cudaErrorInvalidSymbol);
}

// Hints about managed memory: their arguments are checked as CUDA checks
// them; there is one memory here, so nothing moves.
namespace {
cudaError_t check_location(const cudaMemLocation& location) {
  switch (location.type) {
    case cudaMemLocationTypeDevice: return valid_device(location.id) ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost: return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}
}  // namespace

cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
  if (devPtr == nullptr || count == 0 || flags != 0) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_location(location)) return set_error(e);
  return set_error(check_host_stream(stream));
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  if (devPtr == nullptr || count == 0 || advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
    return set_error(cudaErrorInvalidValue);
  }
  const bool needs_location = advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
  if (needs_location) {
    if (cudaError_t e = check_location(location)) return set_error(e);
  }
  return cudaSuccess;
}
}
