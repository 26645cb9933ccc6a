// CUDA's half-precision type and the common part of its API: __half and
// __half2, conversions with CUDA's rounding, arithmetic, comparisons and the
// math functions. Arithmetic is done in float and rounded once to half,
// which gives the correctly rounded result CUDA's instructions give (float
// has more than twice half's precision, so the double rounding is exact).
#pragma once
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#endif
#include <cmath>
#include <cstdint>

#include <cusim/detail/atomic_functions.hpp>
#include <cusim/detail/device_intrinsics.hpp>
#include <cusim/detail/half_bits.hpp>
#include <cusim/detail/warp_functions.hpp>
#include "vector_types.h"

struct __half_raw {
  unsigned short x;
};

struct __half {
  __half() = default;
  constexpr __half(const __half_raw& raw) : bits_(raw.x) {}
  constexpr __half(float value) : bits_(cusim::detail::float_to_half_bits(value)) {}
  constexpr __half(double value) : bits_(cusim::detail::double_to_half_bits(value)) {}
  constexpr __half(int value) : __half(static_cast<float>(value)) {}
  constexpr __half(unsigned int value) : __half(static_cast<float>(value)) {}
  constexpr __half(long long value) : __half(static_cast<float>(value)) {}
  constexpr __half(unsigned long long value) : __half(static_cast<float>(value)) {}
  constexpr __half(short value) : __half(static_cast<float>(value)) {}
  constexpr __half(unsigned short value) : __half(static_cast<float>(value)) {}
  constexpr operator float() const { return cusim::detail::half_bits_to_float(bits_); }
  constexpr operator __half_raw() const { return {bits_}; }
  constexpr __half& operator=(const __half_raw& raw) {
    bits_ = raw.x;
    return *this;
  }

  // Public, so that __half stays a standard-layout 2-byte type; and without
  // an initializer, so that its default constructor is trivial, as NVIDIA's
  // is (a __shared__ array of them must not be initialized, and clang
  // refuses one whose type has a constructor that does something).
  unsigned short bits_;
};
typedef __half half;

struct __half2_raw {
  unsigned short x, y;
};

struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(__half a, __half b) : x(a), y(b) {}
  constexpr __half2(const __half2_raw& raw) : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  constexpr operator __half2_raw() const { return {x.bits_, y.bits_}; }
};
typedef __half2 half2;

// Conversions.
constexpr __half __float2half(float a) { return __half(a); }
constexpr __half __float2half_rn(float a) { return __half(a); }
constexpr __half __float2half_rz(float a) {
  return __half_raw{cusim::detail::float_to_half_bits(a, cusim::detail::half_rounding::toward_zero)};
}
constexpr __half __float2half_rd(float a) {
  return __half_raw{cusim::detail::float_to_half_bits(a, cusim::detail::half_rounding::down)};
}
constexpr __half __float2half_ru(float a) {
  return __half_raw{cusim::detail::float_to_half_bits(a, cusim::detail::half_rounding::up)};
}
constexpr __half __double2half(double a) { return __half(a); }
constexpr float __half2float(__half a) { return float(a); }
constexpr unsigned short __half_as_ushort(__half a) { return a.bits_; }
constexpr short __half_as_short(__half a) { return static_cast<short>(a.bits_); }
constexpr __half __ushort_as_half(unsigned short a) { return __half_raw{a}; }
constexpr __half __short_as_half(short a) { return __half_raw{static_cast<unsigned short>(a)}; }

constexpr __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
constexpr __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
constexpr __half2 __halves2half2(__half a, __half b) { return {a, b}; }
constexpr __half2 __half2half2(__half a) { return {a, a}; }
constexpr __half2 make_half2(__half a, __half b) { return {a, b}; }
constexpr float2 __half22float2(__half2 a) { return {float(a.x), float(a.y)}; }
constexpr __half2 __float22half2_rn(float2 a) { return {__half(a.x), __half(a.y)}; }
constexpr __half __low2half(__half2 a) { return a.x; }
constexpr __half __high2half(__half2 a) { return a.y; }
constexpr float __low2float(__half2 a) { return float(a.x); }
constexpr float __high2float(__half2 a) { return float(a.y); }
constexpr __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
constexpr __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
constexpr __half2 __low2half2(__half2 a) { return {a.x, a.x}; }
constexpr __half2 __high2half2(__half2 a) { return {a.y, a.y}; }
constexpr __half2 __lowhigh2highlow(__half2 a) { return {a.y, a.x}; }

// Conversions from and to integers, arithmetic, comparisons, math, pairs,
// operators, atomics and shuffles:
// the API cuda_bf16.h shares.
#define CUSIM_RF_T __half
#define CUSIM_RF_T2 __half2
#define CUSIM_RF_RAW(bits) __half(__half_raw{bits})
#define CUSIM_RF_INFINITY 0x7c00u
#define CUSIM_RF_FROM_FLOAT(f, mode) \
  __half(__half_raw{cusim::detail::float_to_half_bits(f, cusim::detail::half_rounding::mode)})
#define CUSIM_RF_TO_INTEGER(name, mode) __half2##name##_##mode
#define CUSIM_RF_FROM_INTEGER(name, mode) __##name##2half_##mode
#ifdef __CUDA_NO_HALF_OPERATORS__
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

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00U)
