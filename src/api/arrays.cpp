// CUDA arrays (cudaMallocArray, cudaMalloc3DArray) and the copies into and
// out of them. Their texels live in device memory from cudaMalloc, so the
// copies are the pitched copies of api/memory_2d.cpp.
#include "api/arrays.hpp"

#include <mutex>
#include <set>

#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

using namespace cusim::detail;

namespace {

std::mutex arrays_mutex;
// Never destroyed: arrays a program does not free stay reachable through it
// until the process ends (LeakSanitizer reports none), as its allocations do.
std::set<cudaArray_const_t>& live_arrays() {
  static auto* arrays = new std::set<cudaArray_const_t>;
  return *arrays;
}

bool valid_bits(int bits) { return bits == 0 || bits == 8 || bits == 16 || bits == 32; }

cudaError_t make_array(cudaArray_t* out, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags,
                       const char* api) {
  if (out == nullptr || desc == nullptr) return set_error(cudaErrorInvalidValue);
  const std::size_t bytes = format_bytes(*desc);
  if (bytes == 0) {
    report("{}: the channel format ({}, {}, {}, {} bits, kind {}) is not one a CUDA array holds: 1, 2 or 4 channels "
           "of 8, 16 or 32 bits (float: 16 or 32). It returns cudaErrorInvalidChannelDescriptor.",
           api, desc->x, desc->y, desc->z, desc->w, static_cast<int>(desc->f));
    return set_error(cudaErrorInvalidChannelDescriptor);
  }
  // A cubemap: square faces, six of them (six per cube when layered).
  const bool cubemap = (flags & cudaArrayCubemap) != 0;
  const bool layered = (flags & cudaArrayLayered) != 0;
  const bool cube_faces = layered ? extent.depth != 0 && extent.depth % 6 == 0 : extent.depth == 6;
  if (extent.width == 0 || (cubemap && (extent.width != extent.height || !cube_faces))) {
    return set_error(cudaErrorInvalidValue);
  }
  auto* array = new cudaArray{};
  array->desc = *desc;
  array->declared = extent;
  array->width = extent.width;
  array->height = extent.height == 0 ? 1 : extent.height;
  array->depth = extent.depth == 0 ? 1 : extent.depth;
  array->flags = flags;
  array->element_bytes = bytes;
  void* data = nullptr;
  if (cudaError_t e = cudaMalloc(&data, array->slice() * array->depth)) {
    delete array;
    return e;
  }
  array->data = static_cast<char*>(data);
  {
    std::lock_guard lock(arrays_mutex);
    live_arrays().insert(array);
  }
  *out = array;
  return cudaSuccess;
}

// The bytes from byte `offset` of row `row` of `array` on, `count` of them, lie in it.
bool fits(cudaArray_const_t array, std::size_t offset, std::size_t row, std::size_t width, std::size_t rows) {
  const std::size_t all_rows = array->height * array->depth;  // (subtracted, so that nothing wraps)
  return offset <= array->pitch() && width <= array->pitch() - offset && row <= all_rows && rows <= all_rows - row;
}

region at_byte(cudaArray_const_t array, std::size_t offset, std::size_t row) {
  return {array->data + row * array->pitch() + offset, array->pitch(), array->slice()};
}

cudaError_t copy_to_array(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset, const void* src,
                          std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          cudaStream_t stream, bool asynchronous, const char* api) {
  if (cudaError_t e = context_error()) return e;
  if (!is_live_array(dst) || !fits(dst, w_offset, h_offset, width, height)) return set_error(cudaErrorInvalidValue);
  return copy_regions(at_byte(dst, w_offset, h_offset), {static_cast<char*>(const_cast<void*>(src)), spitch, 0},
                      width, height, 1, kind, stream, asynchronous, api);
}

cudaError_t copy_from_array(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t w_offset,
                            std::size_t h_offset, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                            cudaStream_t stream, bool asynchronous, const char* api) {
  if (cudaError_t e = context_error()) return e;
  if (!is_live_array(src) || !fits(src, w_offset, h_offset, width, height)) return set_error(cudaErrorInvalidValue);
  return copy_regions({static_cast<char*>(dst), dpitch, 0}, at_byte(src, w_offset, h_offset), width, height, 1, kind,
                      stream, asynchronous, api);
}

bool fits_linearly(cudaArray_const_t array, std::size_t w_offset, std::size_t h_offset, std::size_t count) {
  const std::size_t size = array->slice() * array->depth;
  if (h_offset > size / array->pitch()) return false;
  const std::size_t start = h_offset * array->pitch();
  return w_offset <= size - start && count <= size - start - w_offset;
}

}  // namespace

namespace cusim::detail {

int channel_count(const cudaChannelFormatDesc& desc) {
  return (desc.x != 0) + (desc.y != 0) + (desc.z != 0) + (desc.w != 0);
}

std::size_t format_bytes(const cudaChannelFormatDesc& d) {
  if (!valid_bits(d.x) || !valid_bits(d.y) || !valid_bits(d.z) || !valid_bits(d.w) || d.x == 0) return 0;
  // Channels are x, then y, then z and w; each present one as wide as x.
  const int channels = channel_count(d);
  if (channels == 3) return 0;
  const int widths[] = {d.x, d.y, d.z, d.w};
  for (int c = 0; c < channels; ++c) {
    if (widths[c] != d.x) return 0;
  }
  for (int c = channels; c < 4; ++c) {
    if (widths[c] != 0) return 0;
  }
  if (d.f == cudaChannelFormatKindFloat && d.x == 8) return 0;
  if (d.f != cudaChannelFormatKindFloat && d.f != cudaChannelFormatKindSigned && d.f != cudaChannelFormatKindUnsigned) {
    return 0;
  }
  return static_cast<std::size_t>(channels * d.x / 8);
}

bool is_live_array(cudaArray_const_t array) {
  std::lock_guard lock(arrays_mutex);
  return live_arrays().count(array) != 0;
}

region array_region(cudaArray_const_t array, const cudaPos& at) {
  return {array->data + at.z * array->slice() + at.y * array->pitch() + at.x * array->element_bytes, array->pitch(),
          array->slice()};
}

std::size_t array_element_bytes(cudaArray_const_t array) { return array->element_bytes; }

}  // namespace cusim::detail

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned int flags) {
  if (cudaError_t e = context_error()) return e;
  return make_array(array, desc, make_cudaExtent(width, height, 0), flags, "cudaMallocArray");
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  if (cudaError_t e = context_error()) return e;
  return make_array(array, desc, extent, flags, "cudaMalloc3DArray");
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array == nullptr) return cudaSuccess;
  {
    std::lock_guard lock(arrays_mutex);
    if (live_arrays().erase(array) == 0) return set_error(cudaErrorInvalidValue);
  }
  const cudaError_t freed = cudaFree(array->data);
  delete array;
  return freed;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  if (!is_live_array(array)) return set_error(cudaErrorInvalidValue);
  if (desc != nullptr) *desc = array->desc;
  if (extent != nullptr) *extent = array->declared;
  if (flags != nullptr) *flags = array->flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (desc == nullptr || !is_live_array(array)) return set_error(cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, nullptr, false, "cudaMemcpy2DToArray");
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true,
                       "cudaMemcpy2DToArrayAsync");
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, nullptr, false,
                         "cudaMemcpy2DFromArray");
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  return copy_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, true,
                         "cudaMemcpy2DFromArrayAsync");
}

// The deprecated linear forms: `count` bytes from (wOffset, hOffset) on,
// running on through the rows (the texels are dense).
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              cudaMemcpyKind kind) {
  if (cudaError_t e = context_error()) return e;
  if (!is_live_array(dst) || !fits_linearly(dst, wOffset, hOffset, count)) return set_error(cudaErrorInvalidValue);
  return copy_regions(at_byte(dst, wOffset, hOffset), {static_cast<char*>(const_cast<void*>(src)), count, 0}, count, 1,
                      1, kind, nullptr, false, "cudaMemcpyToArray");
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind) {
  if (cudaError_t e = context_error()) return e;
  if (!is_live_array(src) || !fits_linearly(src, wOffset, hOffset, count)) return set_error(cudaErrorInvalidValue);
  return copy_regions({static_cast<char*>(dst), count, 0}, at_byte(src, wOffset, hOffset), count, 1, 1, kind, nullptr,
                      false, "cudaMemcpyFromArray");
}

}  // extern "C"
