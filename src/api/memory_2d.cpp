// Pitched allocations and 2D/3D copies and sets: rows of `width` bytes,
// `pitch` bytes apart, in linear memory or CUDA arrays (api/arrays.hpp). Each
// copy is checked whole (every row a device side touches must lie in one
// allocation) before it is queued, then runs row by row on the device thread.
#include <cstring>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>

#include "api/arrays.hpp"
#include "api/memory.hpp"
#include "api/memory_2d.hpp"
#include "api/streams.hpp"
#include "memory/allocations.hpp"
#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

using namespace cusim::detail;

namespace {

// cudaMallocPitch rounds rows up to this (an H100's pitch alignment for
// cudaMallocPitch).
constexpr std::size_t pitch_alignment = 512;

bool device_side(cudaMemcpyKind kind, bool destination) {
  if (kind == cudaMemcpyDeviceToDevice) return true;
  return destination ? kind == cudaMemcpyHostToDevice : kind == cudaMemcpyDeviceToHost;
}

// Every byte [first, first + span) of a device side lies in one allocation.
bool side_fits(const void* first, std::size_t span, bool device) {
  return !device || is_device_range(first, span);
}

}  // namespace

namespace cusim::detail {

cudaError_t copy_regions(region dst, region src, std::size_t width, std::size_t height, std::size_t depth,
                         cudaMemcpyKind kind, cudaStream_t stream, bool asynchronous, const char* api) {
  if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return set_error(cudaErrorInvalidMemcpyDirection);
  if (dst.base == nullptr || src.base == nullptr) return set_error(cudaErrorInvalidValue);
  if ((height > 1 || depth > 1) && (width > dst.pitch || width > src.pitch)) return set_error(cudaErrorInvalidPitchValue);
  const std::size_t dst_span = (depth - 1) * dst.slice + (height - 1) * dst.pitch + width;
  const std::size_t src_span = (depth - 1) * src.slice + (height - 1) * src.pitch + width;
  if (!side_fits(dst.base, dst_span, device_side(kind, true)) || !side_fits(src.base, src_span, device_side(kind, false))) {
    return set_error(cudaErrorInvalidValue);
  }
  const bool staged = kind != cudaMemcpyDeviceToDevice && (pageable(dst.base) || pageable(src.base));
  return enqueue(
      stream,
      [=] {
        for (std::size_t z = 0; z < depth; ++z) {
          for (std::size_t y = 0; y < height; ++y) {
            copy_bytes(dst.base + z * dst.slice + y * dst.pitch, src.base + z * src.slice + y * src.pitch, width);
          }
        }
      },
      cudaGraphNodeTypeMemcpy, !asynchronous || staged, api);
}

}  // namespace cusim::detail

namespace {

cudaError_t set_region(region dst, int value, std::size_t width, std::size_t height, std::size_t depth,
                       cudaStream_t stream) {
  if (width == 0 || height == 0 || depth == 0) return cudaSuccess;
  if (dst.base == nullptr) return set_error(cudaErrorInvalidValue);
  if ((height > 1 || depth > 1) && width > dst.pitch) return set_error(cudaErrorInvalidPitchValue);
  if (!is_device_range(dst.base, (depth - 1) * dst.slice + (height - 1) * dst.pitch + width)) {
    return set_error(cudaErrorInvalidValue);
  }
  return enqueue(
      stream,
      [=] {
        for (std::size_t z = 0; z < depth; ++z) {
          for (std::size_t y = 0; y < height; ++y) set_bytes(dst.base + z * dst.slice + y * dst.pitch, value, width);
        }
      },
      cudaGraphNodeTypeMemset, false, "cudaMemset2D");
}

region region_of(const cudaPitchedPtr& p, const cudaPos& at) {
  const std::size_t slice = p.pitch * p.ysize;
  return {static_cast<char*>(p.ptr) + at.z * slice + at.y * p.pitch + at.x, p.pitch, slice};
}

// A side of a 3D copy: a CUDA array at a position in elements, or pitched
// memory at a position in bytes.
region side_of(cudaArray_t array, const cudaPitchedPtr& p, const cudaPos& at) {
  return array != nullptr ? array_region(array, at) : region_of(p, at);
}

cudaError_t copy_3d(const cudaMemcpy3DParms* p, cudaStream_t stream, bool asynchronous) {
  if (p == nullptr) return set_error(cudaErrorInvalidValue);
  // With a CUDA array on either side the extent counts its elements;
  // between pitched memory, bytes.
  const cudaArray_t array = p->srcArray != nullptr ? p->srcArray : p->dstArray;
  const std::size_t width = array != nullptr ? p->extent.width * array_element_bytes(array) : p->extent.width;
  return copy_regions(side_of(p->dstArray, p->dstPtr, p->dstPos), side_of(p->srcArray, p->srcPtr, p->srcPos), width,
                      p->extent.height, p->extent.depth, p->kind, stream, asynchronous, "cudaMemcpy3D");
}

}  // namespace

extern "C" {

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (devPtr == nullptr || pitch == nullptr) return set_error(cudaErrorInvalidValue);
  const size_t row = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
  if (cudaError_t e = cudaMalloc(devPtr, row * height)) return e;
  *pitch = row;
  return cudaSuccess;
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  if (pitchedDevPtr == nullptr) return set_error(cudaErrorInvalidValue);
  size_t pitch = 0;
  void* p = nullptr;
  if (cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, extent.height * extent.depth)) return e;
  *pitchedDevPtr = make_cudaPitchedPtr(p, pitch, extent.width, extent.height);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  if (cudaError_t e = context_error()) return e;
  return copy_regions({static_cast<char*>(dst), dpitch, 0}, {static_cast<char*>(const_cast<void*>(src)), spitch, 0},
                      width, height, 1, kind, nullptr, false, "cudaMemcpy2D");
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  return copy_regions({static_cast<char*>(dst), dpitch, 0}, {static_cast<char*>(const_cast<void*>(src)), spitch, 0},
                      width, height, 1, kind, stream, true, "cudaMemcpy2DAsync");
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  if (cudaError_t e = context_error()) return e;
  return set_region({static_cast<char*>(devPtr), pitch, 0}, value, width, height, 1, nullptr);
}

cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  return set_region({static_cast<char*>(devPtr), pitch, 0}, value, width, height, 1, stream);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (cudaError_t e = context_error()) return e;
  return copy_3d(p, nullptr, false);
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  return copy_3d(p, stream, true);
}

cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  if (cudaError_t e = context_error()) return e;
  return set_region(region_of(pitchedDevPtr, {0, 0, 0}), value, extent.width, extent.height, extent.depth, nullptr);
}

cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  return set_region(region_of(pitchedDevPtr, {0, 0, 0}), value, extent.width, extent.height, extent.depth, stream);
}

// One device: a peer copy is a copy within it.
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count) {
  if (!valid_device(dstDevice) || !valid_device(srcDevice)) return set_error(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                cudaStream_t stream) {
  if (!valid_device(dstDevice) || !valid_device(srcDevice)) return set_error(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

}  // extern "C"
