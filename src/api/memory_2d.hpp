// Copies between regions of rows (linear memory, pitched memory, CUDA
// arrays), checked whole and queued on a stream (api/memory_2d.cpp).
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

namespace cusim::detail {

// Rows of `width` bytes, `pitch` apart, `height` of them, `depth` times
// `slice` bytes apart: a region of memory.
struct region {
  char* base;
  std::size_t pitch;
  std::size_t slice;
};

// Copies `width` bytes of `height` rows of `depth` slices from `src` to
// `dst` on `stream` (`api` names the call in reports).
cudaError_t copy_regions(region dst, region src, std::size_t width, std::size_t height, std::size_t depth,
                         cudaMemcpyKind kind, cudaStream_t stream, bool asynchronous, const char* api);

}  // namespace cusim::detail
