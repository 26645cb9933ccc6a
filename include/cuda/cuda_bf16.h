// CUDA's bfloat16 type and the common part of its API: __nv_bfloat16 and
// __nv_bfloat162 (a float's top 16 bits: float's range, 8 bits of
// precision), conversions with CUDA's rounding, and the arithmetic,
// comparisons and math functions cuda_fp16.h has for __half, overloaded
// (cusim/detail/reduced_float_functions.inc).
#pragma once
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#endif
#include <cmath>
#include <cstdint>

#include <cusim/detail/atomic_functions.hpp>
#include <cusim/detail/device_intrinsics.hpp>
#include <cusim/detail/half_bits.hpp>
#include <cusim/detail/warp_functions.hpp>
#include "cuda_fp16.h"
#include "vector_types.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};

struct __nv_bfloat16 {
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& raw) : bits_(raw.x) {}
  constexpr __nv_bfloat16(float value) : bits_(cusim::detail::float_to_bfloat16_bits(value)) {}
  constexpr __nv_bfloat16(double value) : bits_(cusim::detail::double_to_bfloat16_bits(value)) {}
  constexpr __nv_bfloat16(int value) : __nv_bfloat16(static_cast<double>(value)) {}
  constexpr __nv_bfloat16(unsigned int value) : __nv_bfloat16(static_cast<double>(value)) {}
  constexpr __nv_bfloat16(long long value) : __nv_bfloat16(static_cast<double>(value)) {}
  constexpr __nv_bfloat16(unsigned long long value) : __nv_bfloat16(static_cast<double>(value)) {}
  constexpr __nv_bfloat16(short value) : __nv_bfloat16(static_cast<float>(value)) {}
  constexpr __nv_bfloat16(unsigned short value) : __nv_bfloat16(static_cast<float>(value)) {}
  constexpr operator float() const { return cusim::detail::bfloat16_bits_to_float(bits_); }
  constexpr operator __nv_bfloat16_raw() const { return {bits_}; }
  constexpr __nv_bfloat16& operator=(const __nv_bfloat16_raw& raw) {
    bits_ = raw.x;
    return *this;
  }

  unsigned short bits_;  // public and uninitialized, as __half's (cuda_fp16.h says why)
};
typedef __nv_bfloat16 nv_bfloat16;

struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  constexpr __nv_bfloat162(const __nv_bfloat162_raw& raw)
      : x(__nv_bfloat16_raw{raw.x}), y(__nv_bfloat16_raw{raw.y}) {}
  constexpr operator __nv_bfloat162_raw() const { return {x.bits_, y.bits_}; }
};
typedef __nv_bfloat162 nv_bfloat162;

// Conversions.
namespace cusim::detail {
constexpr __nv_bfloat16 bfloat16_rounded(float a, half_rounding mode) {
  return __nv_bfloat16_raw{float_to_bfloat16_bits(a, mode)};
}
}  // namespace cusim::detail
constexpr __nv_bfloat16 __float2bfloat16(float a) { return __nv_bfloat16(a); }
constexpr __nv_bfloat16 __float2bfloat16_rn(float a) { return __nv_bfloat16(a); }
constexpr __nv_bfloat16 __float2bfloat16_rz(float a) {
  return cusim::detail::bfloat16_rounded(a, cusim::detail::half_rounding::toward_zero);
}
constexpr __nv_bfloat16 __float2bfloat16_rd(float a) {
  return cusim::detail::bfloat16_rounded(a, cusim::detail::half_rounding::down);
}
constexpr __nv_bfloat16 __float2bfloat16_ru(float a) {
  return cusim::detail::bfloat16_rounded(a, cusim::detail::half_rounding::up);
}
constexpr __nv_bfloat16 __double2bfloat16(double a) { return __nv_bfloat16(a); }
constexpr float __bfloat162float(__nv_bfloat16 a) { return float(a); }
constexpr unsigned short __bfloat16_as_ushort(__nv_bfloat16 a) { return a.bits_; }
constexpr short __bfloat16_as_short(__nv_bfloat16 a) { return static_cast<short>(a.bits_); }
constexpr __nv_bfloat16 __ushort_as_bfloat16(unsigned short a) { return __nv_bfloat16_raw{a}; }
constexpr __nv_bfloat16 __short_as_bfloat16(short a) { return __nv_bfloat16_raw{static_cast<unsigned short>(a)}; }

constexpr __nv_bfloat162 __float2bfloat162_rn(float a) { return {__nv_bfloat16(a), __nv_bfloat16(a)}; }
constexpr __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__nv_bfloat16(a), __nv_bfloat16(b)}; }
constexpr __nv_bfloat162 __float22bfloat162_rn(float2 a) { return {__nv_bfloat16(a.x), __nv_bfloat16(a.y)}; }
constexpr float2 __bfloat1622float2(__nv_bfloat162 a) { return {float(a.x), float(a.y)}; }
constexpr __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
constexpr __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return {a, a}; }
constexpr __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
constexpr __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
constexpr __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
constexpr float __low2float(__nv_bfloat162 a) { return float(a.x); }
constexpr float __high2float(__nv_bfloat162 a) { return float(a.y); }
constexpr __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.x, b.x}; }
constexpr __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.y, b.y}; }
constexpr __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return {a.x, a.x}; }
constexpr __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return {a.y, a.y}; }
constexpr __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return {a.y, a.x}; }

#define CUSIM_RF_T __nv_bfloat16
#define CUSIM_RF_T2 __nv_bfloat162
#define CUSIM_RF_RAW(bits) __nv_bfloat16(__nv_bfloat16_raw{bits})
#define CUSIM_RF_INFINITY 0x7f80u
#define CUSIM_RF_FROM_FLOAT(f, mode) cusim::detail::bfloat16_rounded(f, cusim::detail::half_rounding::mode)
#define CUSIM_RF_TO_INTEGER(name, mode) __bfloat162##name##_##mode
#define CUSIM_RF_FROM_INTEGER(name, mode) __##name##2bfloat16_##mode
#ifdef __CUDA_NO_BFLOAT16_OPERATORS__
#define CUSIM_RF_NO_OPERATORS
#endif
#include <cusim/detail/reduced_float_functions.inc>
#undef CUSIM_RF_T
#undef CUSIM_RF_T2
#undef CUSIM_RF_RAW
#undef CUSIM_RF_INFINITY
#undef CUSIM_RF_FROM_FLOAT
#undef CUSIM_RF_TO_INTEGER
#undef CUSIM_RF_FROM_INTEGER
#undef CUSIM_RF_NO_OPERATORS

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7f80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7fffU)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7f7fU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3f80U)
