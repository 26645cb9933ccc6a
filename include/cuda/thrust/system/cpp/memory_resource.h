// Thrust on cusim (docs/libraries.md#thrust). cuda_runtime.h makes Thrust's
// C++ system its device system (Thrust's CUDA system is written for nvcc's
// compilation model); this header, found before Thrust's own of this name,
// makes that system's memory cusim's device memory, so that a
// device_vector's data is what cudaMalloc gives: kernels, cudaMemcpy and
// cusim's memory checks treat thrust::raw_pointer_cast(v.data()) as the
// device pointer it is on a GPU. universal_vector's memory is managed
// memory. Thrust's other layouts of this file (other than 1.15-1.17, which
// Debian 12 ships) get Thrust's own.
#pragma once
#include <thrust/version.h>

#if THRUST_VERSION < 101500 || THRUST_VERSION >= 200000
#include_next <thrust/system/cpp/memory_resource.h>
#else
#include <cstddef>
#include <cstdint>
#include <new>

#include <cuda_runtime_api.h>
#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>

namespace cusim::detail {

// cudaMalloc (or cudaMallocManaged) as a Thrust memory resource. Device
// allocations are 256-byte aligned, more than Thrust asks.
template <bool Managed>
class thrust_device_resource final : public THRUST_NS_QUALIFIER::mr::memory_resource<> {
 public:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    void* p = nullptr;
    const cudaError_t status = Managed ? cudaMallocManaged(&p, bytes) : cudaMalloc(&p, bytes);
    if (status != cudaSuccess || reinterpret_cast<std::uintptr_t>(p) % alignment != 0) throw std::bad_alloc();
    return p;
  }
  void do_deallocate(void* p, std::size_t, std::size_t) override { cudaFree(p); }
};

}  // namespace cusim::detail

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {
typedef thrust::mr::fancy_pointer_resource<::cusim::detail::thrust_device_resource<false>, thrust::cpp::pointer<void>>
    native_resource;
typedef thrust::mr::fancy_pointer_resource<::cusim::detail::thrust_device_resource<true>,
                                           thrust::cpp::universal_pointer<void>>
    universal_native_resource;
}  // namespace detail
typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;
}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
#endif
