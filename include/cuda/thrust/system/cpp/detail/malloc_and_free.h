// Thrust on cusim (docs/libraries.md#thrust): thrust::malloc and
// thrust::device_malloc on the device system (Thrust's C++ system here)
// return cusim's device memory, from cudaMalloc, as on a GPU: cudaMemcpy
// and kernels take them as device pointers. (Thrust's own version of this
// header is the sequential system's std::malloc.) Versions of Thrust other
// than those it was written for (1.15-1.17) get Thrust's own.
#pragma once
#include <thrust/version.h>

#if THRUST_VERSION < 101500 || THRUST_VERSION >= 200000
#include_next <thrust/system/cpp/detail/malloc_and_free.h>
#else
#include <cstddef>

#include <cuda_runtime_api.h>
#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include <thrust/system/detail/sequential/malloc_and_free.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

// A failed allocation is a null pointer, which Thrust turns into its bad_alloc.
template <typename DerivedPolicy>
inline void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
  void* p = nullptr;
  return cudaMalloc(&p, n) == cudaSuccess ? p : nullptr;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(execution_policy<DerivedPolicy>&, Pointer ptr) {
  cudaFree(thrust::raw_pointer_cast(ptr));
}

}  // namespace detail
}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END

// What Thrust's CUDA system brings with its allocation, and programs
// written for it catch without including (cuda-samples'
// segmentationTreeThrust, around thrust::device_malloc).
#include <thrust/system_error.h>
#endif
