// CUDA's 8-bit floating-point types: __nv_fp8_e4m3 and __nv_fp8_e5m2, their
// pairs and quadruples, and the conversions between them and float,
// double, half and bfloat16 (round to nearest even, saturating or not as
// asked; the bit-level work is cusim/detail/half_bits.hpp). The types
// convert as CUDA's do: explicitly, saturating to the largest finite value.
#pragma once
#ifndef __CUDA_FP8_H__
#define __CUDA_FP8_H__
#endif
#include <cmath>
#include <initializer_list>
#include <type_traits>

#include <cusim/detail/half_bits.hpp>
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "vector_types.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace cusim::detail {
constexpr fp8_format fp8_format_of(__nv_fp8_interpretation_t kind) { return kind == __NV_E4M3 ? fp8_e4m3 : fp8_e5m2; }
}  // namespace cusim::detail

// One value.
inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
  return cusim::detail::double_to_fp8_bits(x, cusim::detail::fp8_format_of(kind), saturate == __NV_SATFINITE);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
  return __nv_cvt_double_to_fp8(x, saturate, kind);
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
  return __nv_cvt_double_to_fp8(float(__half(x)), saturate, kind);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t saturate,
                                                      __nv_fp8_interpretation_t kind) {
  return __nv_cvt_double_to_fp8(float(__nv_bfloat16(x)), saturate, kind);
}
// fp8 -> half is exact: a NaN becomes the canonical 0x7fff.
inline __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t kind) {
  return __half(cusim::detail::fp8_bits_to_double(x, cusim::detail::fp8_format_of(kind)));
}

// Pairs: the low byte is the first (x) value.
namespace cusim::detail {
template <class Pair, class F>
__nv_fp8x2_storage_t fp8_pair(Pair x, F convert) {
  return static_cast<__nv_fp8x2_storage_t>(convert(x.x) | convert(x.y) << 8);
}
}  // namespace cusim::detail
#define CUSIM_FP8_PAIR_FROM_(name, Pair, single)                                                                \
  inline __nv_fp8x2_storage_t name(Pair x, __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {        \
    return cusim::detail::fp8_pair(x, [=](auto v) { return single(v, saturate, kind); });                       \
  }
CUSIM_FP8_PAIR_FROM_(__nv_cvt_double2_to_fp8x2, double2, __nv_cvt_double_to_fp8)
CUSIM_FP8_PAIR_FROM_(__nv_cvt_float2_to_fp8x2, float2, __nv_cvt_float_to_fp8)
CUSIM_FP8_PAIR_FROM_(__nv_cvt_halfraw2_to_fp8x2, __half2_raw, [](unsigned short h, auto... m) { return __nv_cvt_halfraw_to_fp8(__half_raw{h}, m...); })
CUSIM_FP8_PAIR_FROM_(__nv_cvt_bfloat16raw2_to_fp8x2, __nv_bfloat162_raw, [](unsigned short b, auto... m) { return __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{b}, m...); })
#undef CUSIM_FP8_PAIR_FROM_
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x, __nv_fp8_interpretation_t kind) {
  return {__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x), kind).x,
          __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x >> 8), kind).x};
}

namespace cusim::detail {

// What __nv_fp8_e4m3 and __nv_fp8_e5m2 share: explicit conversions from and
// to the arithmetic types, through double (exact both ways: integers are
// first made float, as CUDA does), saturating to the largest finite value.
template <__nv_fp8_interpretation_t Kind>
struct fp8_scalar {
  fp8_scalar() = default;
  explicit fp8_scalar(double v) : __x(__nv_cvt_double_to_fp8(v, __NV_SATFINITE, Kind)) {}
  explicit fp8_scalar(float v) : fp8_scalar(double(v)) {}
  explicit fp8_scalar(__half v) : fp8_scalar(double(float(v))) {}
  explicit fp8_scalar(__nv_bfloat16 v) : fp8_scalar(double(float(v))) {}
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  explicit fp8_scalar(I v) : fp8_scalar(double(static_cast<float>(v))) {}

  explicit operator double() const { return fp8_bits_to_double(__x, fp8_format_of(Kind)); }
  explicit operator float() const { return static_cast<float>(double(*this)); }
  explicit operator __half() const { return __nv_cvt_fp8_to_halfraw(__x, Kind); }
  explicit operator __nv_bfloat16() const { return __nv_bfloat16(float(*this)); }
  explicit operator bool() const { return (__x & 0x7f) != 0; }
  // To integers as from float: saturating, NaN to 0.
  template <class I, class = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>>>
  explicit operator I() const {
    const double v = double(*this);
    return v != v ? I(0) : saturating_cast<I>(std::trunc(v));
  }

  __nv_fp8_storage_t __x;  // public and uninitialized, as CUDA's
};

// Pairs and quadruples: lane i in byte i.
template <__nv_fp8_interpretation_t Kind, class Storage>
struct fp8_vector {
  static constexpr int lanes = sizeof(Storage);
  fp8_vector() = default;
  explicit fp8_vector(float2 v) : __x(pack({v.x, v.y})) {}
  explicit fp8_vector(double2 v) : __x(pack({v.x, v.y})) {}
  explicit fp8_vector(__half2 v) : __x(pack({float(v.x), float(v.y)})) {}
  explicit fp8_vector(__nv_bfloat162 v) : __x(pack({float(v.x), float(v.y)})) {}
  explicit fp8_vector(float4 v) : __x(pack({v.x, v.y, v.z, v.w})) {}
  explicit fp8_vector(double4 v) : __x(pack({v.x, v.y, v.z, v.w})) {}
  fp8_vector(__half2 low, __half2 high) : __x(pack({float(low.x), float(low.y), float(high.x), float(high.y)})) {}
  fp8_vector(__nv_bfloat162 low, __nv_bfloat162 high)
      : __x(pack({float(low.x), float(low.y), float(high.x), float(high.y)})) {}

  explicit operator float2() const { return {lane(0), lane(1)}; }
  explicit operator __half2() const { return {__half(lane(0)), __half(lane(1))}; }
  explicit operator float4() const { return {lane(0), lane(1), lane(2), lane(3)}; }

  Storage __x;

 private:
  static Storage pack(std::initializer_list<double> values) {
    Storage bits = 0;
    int i = 0;
    for (double v : values) bits |= static_cast<Storage>(__nv_cvt_double_to_fp8(v, __NV_SATFINITE, Kind)) << (8 * i++);
    return bits;
  }
  float lane(int i) const { return float(fp8_bits_to_double(static_cast<std::uint8_t>(__x >> (8 * i)), fp8_format_of(Kind))); }
};

}  // namespace cusim::detail

struct __nv_fp8_e4m3 : cusim::detail::fp8_scalar<__NV_E4M3> {
  using fp8_scalar::fp8_scalar;
};
struct __nv_fp8_e5m2 : cusim::detail::fp8_scalar<__NV_E5M2> {
  using fp8_scalar::fp8_scalar;
};
struct alignas(2) __nv_fp8x2_e4m3 : cusim::detail::fp8_vector<__NV_E4M3, __nv_fp8x2_storage_t> {
  using fp8_vector::fp8_vector;
};
struct alignas(2) __nv_fp8x2_e5m2 : cusim::detail::fp8_vector<__NV_E5M2, __nv_fp8x2_storage_t> {
  using fp8_vector::fp8_vector;
};
struct alignas(4) __nv_fp8x4_e4m3 : cusim::detail::fp8_vector<__NV_E4M3, __nv_fp8x4_storage_t> {
  using fp8_vector::fp8_vector;
};
struct alignas(4) __nv_fp8x4_e5m2 : cusim::detail::fp8_vector<__NV_E5M2, __nv_fp8x4_storage_t> {
  using fp8_vector::fp8_vector;
};
