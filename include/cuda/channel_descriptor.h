// cudaCreateChannelDesc<T>(): the channel format of a texel type (float,
// uchar4, short2, __half, ...): one channel per component, each as wide as
// the component, read as float, signed or unsigned.
#pragma once
#include <type_traits>

#include <cusim/detail/texture_functions.hpp>

#include "cuda_runtime_api.h"

template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  constexpr int n = cusim::detail::components_of<T>();
  using C = typename cusim::detail::component_type<T>::type;
  constexpr int bits = static_cast<int>(sizeof(C) * 8);
  // A component that is a class (__half) is a 16-bit float.
  constexpr cudaChannelFormatKind kind = std::is_floating_point_v<C> || !std::is_integral_v<C>
                                             ? cudaChannelFormatKindFloat
                                             : std::is_signed_v<C> ? cudaChannelFormatKindSigned
                                                                   : cudaChannelFormatKindUnsigned;
  constexpr int count = n == 0 ? 1 : n;
  return {bits, count > 1 ? bits : 0, count > 2 ? bits : 0, count > 3 ? bits : 0, kind};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() { return {16, 16, 0, 0, cudaChannelFormatKindFloat}; }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() { return {16, 16, 16, 16, cudaChannelFormatKindFloat}; }
