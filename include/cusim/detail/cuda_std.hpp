// cuda::std, libcu++'s standard library for device and host code: on cusim
// device code is host code, so it is the host's standard library. Each
// <cuda/std/X> header includes <X> and this; cuda::std names what ::std
// names (a using-directive, so qualified names such as
// cuda::std::is_same_v are found in ::std), plus what libcu++ offers before
// the C++ version that brought it to ::std. A program cannot specialise a
// template through cuda::std (specialise the ::std one: it is the same).
#pragma once
#include <cstddef>
#include <utility>

namespace cuda {
namespace std {
using namespace ::std;

#if __cplusplus < 202002L
// C++20's std::identity, which libcu++ has in C++17 too.
struct identity {
  template <class T>
  constexpr T&& operator()(T&& value) const noexcept {
    return static_cast<T&&>(value);
  }
  using is_transparent = void;
};
#endif
}  // namespace std
}  // namespace cuda
