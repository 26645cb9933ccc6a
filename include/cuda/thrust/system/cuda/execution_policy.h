// Thrust on cusim (docs/libraries.md#thrust): the CUDA system's execution
// policies, which programs written for nvcc name (`thrust::cuda::par`,
// `thrust::cuda::par.on(stream)`, `thrust::cuda::par_nosync`,
// `thrust::cuda::par(allocator)`), as the device system's: Thrust's C++
// system with cusim's device memory. An algorithm given one runs on the
// calling thread after the work queued on the device, as on the device
// system's tag, where on a GPU it would run in the stream's order: what it
// computes is the same. Other versions of Thrust get Thrust's own header.
#pragma once
#include <thrust/version.h>

#if THRUST_VERSION < 101500 || THRUST_VERSION >= 200000 || THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include_next <thrust/system/cuda/execution_policy.h>
#else
#include <cuda_runtime_api.h>
#include <thrust/system/cpp/detail/par.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {
namespace detail {

// A policy of the C++ system with the CUDA system's stream selector.
template <class Policy>
struct with_stream_selector : Policy {
  constexpr with_stream_selector() = default;
  explicit with_stream_selector(Policy policy) : Policy(static_cast<Policy&&>(policy)) {}
  // The stream an algorithm would run in on a GPU; here it runs after all
  // the work queued on the device, that stream's included.
  __host__ with_stream_selector on(cudaStream_t) const {
    ::cusim::detail::wait_for_device_work();
    return *this;
  }
};

// thrust::system::cpp's par, whose algorithms wait for the work queued on
// the device (cpp/detail/execution_policy.h).
struct par_t : with_stream_selector<thrust::system::cpp::detail::par_t> {
  // par(allocator) and par(&memory_resource): temporaries from it, as the
  // C++ system takes them. Only the plain policy's algorithms wait for
  // queued device work (Thrust's dispatch can be specialized for a type,
  // not for every allocator), so this one waits where it is made: at the
  // call, as programs write `thrust::cuda::par(allocator).on(stream)`.
  template <class Allocator>
  __host__ auto operator()(Allocator&& allocator) const {
    ::cusim::detail::wait_for_device_work();
    auto policy = thrust::system::cpp::detail::par_t::operator()(static_cast<Allocator&&>(allocator));
    return with_stream_selector<decltype(policy)>(static_cast<decltype(policy)&&>(policy));
  }
};

}  // namespace detail

THRUST_INLINE_CONSTANT detail::par_t par;
// CUDA's par_nosync lets the algorithm skip its final synchronisation; a
// host algorithm has none to skip.
THRUST_INLINE_CONSTANT detail::par_t par_nosync;

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::par;
using thrust::system::cuda::par_nosync;
}  // namespace cuda
THRUST_NAMESPACE_END
#endif
