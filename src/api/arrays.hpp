// CUDA arrays: texel storage that textures and surfaces read (and copies
// fill). cusim keeps an array's texels dense in device memory, rows of
// width * element bytes, slices of height rows (the layers of a layered
// array and the six faces of a cubemap are slices too).
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

#include "api/memory_2d.hpp"

struct cudaArray {
  cudaChannelFormatDesc desc;
  cudaExtent declared;        // as allocated: 0 height (1D) or depth (1D and 2D) kept
  std::size_t width, height, depth;  // elements, rows and slices, each at least 1
  unsigned int flags;
  std::size_t element_bytes;
  char* data;
  std::size_t pitch() const { return width * element_bytes; }
  std::size_t slice() const { return pitch() * height; }
};

namespace cusim::detail {

// The bytes per texel of `desc`, or 0 when it is not a format CUDA arrays
// hold (1, 2 or 4 channels of 8, 16 or 32 bits; float of 16 or 32).
std::size_t format_bytes(const cudaChannelFormatDesc& desc);
// How many channels `desc` has.
int channel_count(const cudaChannelFormatDesc& desc);

// Whether `array` is one cudaMallocArray or cudaMalloc3DArray made and no
// cudaFreeArray freed.
bool is_live_array(cudaArray_const_t array);

// The region of `array` from the element at `at` (x in elements).
region array_region(cudaArray_const_t array, const cudaPos& at);
std::size_t array_element_bytes(cudaArray_const_t array);

}  // namespace cusim::detail
