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

  unsigned short bits_ = 0;  // public, so that __half stays a trivial, standard-layout 2-byte type
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
constexpr __half __int2half_rn(int a) { return __half(a); }
constexpr __half __uint2half_rn(unsigned int a) { return __half(a); }
constexpr __half __short2half_rn(short a) { return __half(a); }
constexpr __half __ushort2half_rn(unsigned short a) { return __half(a); }
constexpr __half __ll2half_rn(long long a) { return __half(a); }
// To integers as the float conversions do: saturating, NaN to 0 (a half
// converts to float exactly).
#define CUSIM_HALF_TO_INTEGERS_(suffix)                                                                    \
  inline int __half2int_##suffix(__half a) { return __float2int_##suffix(float(a)); }                     \
  inline unsigned int __half2uint_##suffix(__half a) { return __float2uint_##suffix(float(a)); }          \
  inline long long __half2ll_##suffix(__half a) { return __float2ll_##suffix(float(a)); }                 \
  inline unsigned long long __half2ull_##suffix(__half a) { return __float2ull_##suffix(float(a)); }      \
  inline short __half2short_##suffix(__half a) {                                                          \
    return cusim::detail::saturating_cast<short>(static_cast<double>(__float2int_##suffix(float(a))));    \
  }                                                                                                        \
  inline unsigned short __half2ushort_##suffix(__half a) {                                                \
    return cusim::detail::saturating_cast<unsigned short>(static_cast<double>(__float2uint_##suffix(float(a)))); \
  }
CUSIM_HALF_TO_INTEGERS_(rn)
CUSIM_HALF_TO_INTEGERS_(rz)
CUSIM_HALF_TO_INTEGERS_(rd)
CUSIM_HALF_TO_INTEGERS_(ru)
#undef CUSIM_HALF_TO_INTEGERS_
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

// Arithmetic, one rounding each.
constexpr __half __hadd(__half a, __half b) { return float(a) + float(b); }
constexpr __half __hsub(__half a, __half b) { return float(a) - float(b); }
constexpr __half __hmul(__half a, __half b) { return float(a) * float(b); }
constexpr __half __hdiv(__half a, __half b) { return float(a) / float(b); }
namespace cusim::detail {
constexpr bool half_is_nan(__half a) { return (a.bits_ & 0x7fffu) > 0x7c00u; }
// __hmax / __hmin: a NaN input gives the other input (two give the canonical
// NaN), and -0 is below +0, as CUDA documents.
constexpr __half half_pick(__half a, __half b, bool larger) {
  if (half_is_nan(a)) return half_is_nan(b) ? __half(__half_raw{0x7fff}) : b;
  if (half_is_nan(b)) return a;
  const float x = float(a), y = float(b);
  if (x == y) return ((a.bits_ & 0x8000u) != 0) == larger ? b : a;  // equal: only the zeros' signs differ
  return (x > y) == larger ? a : b;
}
}  // namespace cusim::detail

// Sign operations; a NaN comes out as the canonical 0x7fff, as on a GPU.
constexpr __half __hneg(__half a) {
  return __half_raw{static_cast<unsigned short>(cusim::detail::half_is_nan(a) ? 0x7fffu : a.bits_ ^ 0x8000u)};
}
constexpr __half __habs(__half a) {
  return __half_raw{static_cast<unsigned short>(cusim::detail::half_is_nan(a) ? 0x7fffu : a.bits_ & 0x7fffu)};
}
inline __half __hfma(__half a, __half b, __half c) {
  return static_cast<float>(std::fma(double(float(a)), double(float(b)), double(float(c))));
}
inline __half __hadd_sat(__half a, __half b) { return std::fmin(std::fmax(float(a) + float(b), 0.0f), 1.0f); }
inline __half __hmul_sat(__half a, __half b) { return std::fmin(std::fmax(float(a) * float(b), 0.0f), 1.0f); }
constexpr __half __hmax(__half a, __half b) { return cusim::detail::half_pick(a, b, true); }
constexpr __half __hmin(__half a, __half b) { return cusim::detail::half_pick(a, b, false); }

// Comparisons: ordered (false when either is NaN), and unordered (...u: true).
constexpr bool __heq(__half a, __half b) { return float(a) == float(b); }
constexpr bool __hne(__half a, __half b) { return float(a) < float(b) || float(a) > float(b); }
constexpr bool __hlt(__half a, __half b) { return float(a) < float(b); }
constexpr bool __hle(__half a, __half b) { return float(a) <= float(b); }
constexpr bool __hgt(__half a, __half b) { return float(a) > float(b); }
constexpr bool __hge(__half a, __half b) { return float(a) >= float(b); }
constexpr bool __hequ(__half a, __half b) { return !(float(a) < float(b) || float(a) > float(b)); }
constexpr bool __hneu(__half a, __half b) { return !__heq(a, b); }
inline bool __hisnan(__half a) { return std::isnan(float(a)); }
inline int __hisinf(__half a) { return (a.bits_ & 0x7fffu) == 0x7c00u ? ((a.bits_ & 0x8000u) != 0 ? -1 : 1) : 0; }

// Math functions.
inline __half hsqrt(__half a) { return std::sqrt(float(a)); }
inline __half hrsqrt(__half a) { return 1.0f / std::sqrt(float(a)); }
inline __half hrcp(__half a) { return 1.0f / float(a); }
inline __half hexp(__half a) { return std::exp(float(a)); }
inline __half hexp2(__half a) { return std::exp2(float(a)); }
inline __half hexp10(__half a) { return std::pow(10.0f, float(a)); }
inline __half hlog(__half a) { return std::log(float(a)); }
inline __half hlog2(__half a) { return std::log2(float(a)); }
inline __half hlog10(__half a) { return std::log10(float(a)); }
inline __half hsin(__half a) { return std::sin(float(a)); }
inline __half hcos(__half a) { return std::cos(float(a)); }
inline __half htanh(__half a) { return std::tanh(float(a)); }
inline __half hfloor(__half a) { return std::floor(float(a)); }
inline __half hceil(__half a) { return std::ceil(float(a)); }
inline __half htrunc(__half a) { return std::trunc(float(a)); }
inline __half hrint(__half a) { return std::nearbyint(float(a)); }

// __half2: the same, lane by lane.
inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return {__hsub(a.x, b.x), __hsub(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __half2 __h2div(__half2 a, __half2 b) { return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 __hneg2(__half2 a) { return {__hneg(a.x), __hneg(a.y)}; }
inline __half2 __habs2(__half2 a) { return {__habs(a.x), __habs(a.y)}; }
inline __half2 __hmax2(__half2 a, __half2 b) { return {__hmax(a.x, b.x), __hmax(a.y, b.y)}; }
inline __half2 __hmin2(__half2 a, __half2 b) { return {__hmin(a.x, b.x), __hmin(a.y, b.y)}; }
inline __half2 h2sqrt(__half2 a) { return {hsqrt(a.x), hsqrt(a.y)}; }
inline __half2 h2exp(__half2 a) { return {hexp(a.x), hexp(a.y)}; }
inline bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }

// C++ operators, as cuda_fp16.hpp defines them (unless __CUDA_NO_HALF_OPERATORS__).
#ifndef __CUDA_NO_HALF_OPERATORS__
constexpr __half operator+(__half a, __half b) { return __hadd(a, b); }
constexpr __half operator-(__half a, __half b) { return __hsub(a, b); }
constexpr __half operator*(__half a, __half b) { return __hmul(a, b); }
constexpr __half operator/(__half a, __half b) { return __hdiv(a, b); }
constexpr __half operator-(__half a) { return __hneg(a); }
constexpr __half operator+(__half a) { return a; }
constexpr __half& operator+=(__half& a, __half b) { return a = __hadd(a, b); }
constexpr __half& operator-=(__half& a, __half b) { return a = __hsub(a, b); }
constexpr __half& operator*=(__half& a, __half b) { return a = __hmul(a, b); }
constexpr __half& operator/=(__half& a, __half b) { return a = __hdiv(a, b); }
constexpr __half& operator++(__half& a) { return a = __hadd(a, __half(1.0f)); }
constexpr __half& operator--(__half& a) { return a = __hsub(a, __half(1.0f)); }
constexpr __half operator++(__half& a, int) {
  const __half old = a;
  ++a;
  return old;
}
constexpr __half operator--(__half& a, int) {
  const __half old = a;
  --a;
  return old;
}
constexpr bool operator==(__half a, __half b) { return __heq(a, b); }
constexpr bool operator!=(__half a, __half b) { return __hneu(a, b); }
constexpr bool operator<(__half a, __half b) { return __hlt(a, b); }
constexpr bool operator<=(__half a, __half b) { return __hle(a, b); }
constexpr bool operator>(__half a, __half b) { return __hgt(a, b); }
constexpr bool operator>=(__half a, __half b) { return __hge(a, b); }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
inline __half2& operator+=(__half2& a, __half2 b) { return a = __hadd2(a, b); }
inline __half2& operator*=(__half2& a, __half2 b) { return a = __hmul2(a, b); }
#endif

// Atomic adds of halves (sm_70+), each half rounded once as the GPU's are.
inline __half atomicAdd(__half* address, __half value) {
  return cusim::detail::atomic_update(address, [value](__half old) { return __hadd(old, value); });
}
inline __half2 atomicAdd(__half2* address, __half2 value) {
  return cusim::detail::atomic_update(address, [value](__half2 old) { return __hadd2(old, value); });
}

// Warp shuffles of halves, as cuda_fp16.h declares them.
CUSIM_DEFINE_SHUFFLES(__half)
CUSIM_DEFINE_SHUFFLES(__half2)

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00U)
