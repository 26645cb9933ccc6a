// Thrust on cusim (docs/libraries.md#thrust): Thrust's C++ system, the
// device system here, as Thrust 1.15-1.17 define it, and one addition: an
// algorithm dispatched on the system's tag (Thrust makes one for each
// algorithm called without an execution policy, and for each read or write
// of a device_vector's element from the host) first waits for the work the
// program has queued on the device. On a GPU a Thrust algorithm runs in
// stream order after the kernels launched before it; here it runs on the
// calling thread, and without the wait it would read what a kernel still
// writes. Every dispatch passes through thrust::detail::derived_cast, so
// the wait is a specialization of it (par.h adds thrust::device's). Other
// versions of Thrust get Thrust's own header.
#pragma once
#include <thrust/version.h>

#if THRUST_VERSION < 101500 || THRUST_VERSION >= 200000
#include_next <thrust/system/cpp/detail/execution_policy.h>
#else
#include <cuda_runtime_api.h>
#include <cusim/detail/builtins.hpp>
#include <thrust/detail/config.h>
#include <thrust/detail/execution_policy.h>
#include <thrust/system/detail/sequential/execution_policy.h>

namespace cusim::detail {
// What a host-side Thrust algorithm waits for: everything queued before it
// (its errors stay the program's to find, as cudaGetLastError's).
inline void wait_for_device_work() {
  if (!in_device_code()) (void)cudaDeviceSynchronize();
}
}  // namespace cusim::detail

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

struct tag;

template <typename>
struct execution_policy;

template <>
struct execution_policy<tag> : thrust::system::detail::sequential::execution_policy<tag> {};

struct tag : execution_policy<tag> {};

template <typename Derived>
struct execution_policy : thrust::system::detail::sequential::execution_policy<Derived> {
  typedef tag tag_type;
  operator tag() const { return tag(); }
};

}  // namespace detail

using thrust::system::cpp::detail::execution_policy;
using thrust::system::cpp::detail::tag;

}  // namespace cpp
}  // namespace system

namespace cpp {
using thrust::system::cpp::execution_policy;
using thrust::system::cpp::tag;
}  // namespace cpp

namespace detail {
// Every dispatch of an algorithm casts its policy with derived_cast: for
// the device system's policies, the cast waits first (par.h uses it too).
// __host__ __device__ as Thrust's template is: clang's CUDA parser (the
// kernel facts) matches a specialization only to one of the same target.
#define CUSIM_THRUST_WAITING_DERIVED_CAST(policy)                                                 \
  template <>                                                                                    \
  inline __host__ __device__ policy& derived_cast<policy>(execution_policy_base<policy> & x) {   \
    ::cusim::detail::wait_for_device_work();                                                     \
    return static_cast<policy&>(x);                                                              \
  }                                                                                              \
  template <>                                                                                    \
  inline __host__ __device__ const policy& derived_cast<policy>(                                 \
      const execution_policy_base<policy>& x) {                                                  \
    ::cusim::detail::wait_for_device_work();                                                     \
    return static_cast<const policy&>(x);                                                        \
  }
CUSIM_THRUST_WAITING_DERIVED_CAST(thrust::system::cpp::detail::tag)
}  // namespace detail
THRUST_NAMESPACE_END
#endif
