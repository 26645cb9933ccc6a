// Thrust on cusim (docs/libraries.md#thrust): Thrust's par_t (thrust::device,
// thrust::host and thrust::cpp::par here), and, as for the system's tag
// (execution_policy.h), a dispatch on it first waits for the work queued on
// the device.
#pragma once
#include <thrust/version.h>

#include_next <thrust/system/cpp/detail/par.h>

#include <thrust/system/cpp/detail/execution_policy.h>  // CUSIM_THRUST_WAITING_DERIVED_CAST

#if THRUST_VERSION >= 101500 && THRUST_VERSION < 200000
THRUST_NAMESPACE_BEGIN
namespace detail {
CUSIM_THRUST_WAITING_DERIVED_CAST(thrust::system::cpp::detail::par_t)
}  // namespace detail
THRUST_NAMESPACE_END
// With nvcc, every Thrust header brings the CUDA system's policies
// (`thrust::cuda::par`): here they are the C++ system's.
#include <thrust/system/cuda/execution_policy.h>
#endif
