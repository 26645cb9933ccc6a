// CUDA's integer and bit intrinsics, reinterpretations, and conversions and
// arithmetic with an explicit rounding mode (_rn, _rz, _ru, _rd). Directed
// roundings switch the CPU's rounding mode around one operation; float to
// integer conversions saturate and turn NaN into 0, as the GPU's cvt does.
#pragma once
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <cusim/detail/simd_intrinsics.hpp>

namespace cusim::detail {

// The value, hidden from the optimizer: it can be neither folded at compile
// time nor computed before the rounding mode changes (the memory clobber
// orders it after the fesetround call).
template <class V>
V opaque(V v) {
  asm volatile("" : "+m"(v) : : "memory");
  return v;
}

// Runs `op(args...)` with the CPU rounding in `mode` (FE_TONEAREST,
// FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD).
template <class T, class Op, class... Args>
T with_rounding(int mode, Op op, Args... args) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  const T result = opaque(static_cast<T>(op(opaque(args)...)));
  std::fesetround(saved);
  return result;
}

// Floating point to integer as a GPU converts: saturating. A NaN becomes
// the integer whose top bit alone is set (0x80000000, 0x8000000000000000,
// signed or not), except a float NaN in a 32-bit integer, which becomes 0:
// what an H100 gives.
template <class I, class F>
I saturating_cast(F x) {
  if (std::isnan(x)) {
    if constexpr (sizeof(I) == 4 && std::is_same_v<F, float>) return 0;
    return static_cast<I>(1ull << (8 * sizeof(I) - 1));
  }
  if (x <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (x >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(x);
}

// A float operation's NaN result as a GPU gives it: the canonical 0x7fffffff,
// whatever NaN the inputs held (x86 gives 0xffc00000 or the input's).
inline float canonical_nan(float x) { return std::isnan(x) ? __builtin_bit_cast(float, 0x7fffffffu) : x; }

// A double operation's NaN result as a GPU gives it: of the operands that
// are NaNs, the one the H100 (with nvcc 13's code) gives, quieted; they
// come last-wins: (a, b) for add, subtract and multiply, (b, a) for
// divide, (a, c, b) for fma (diff.generated.arithmetic.*). x86 gives the
// first source register's, which depends on how the compiler ordered a
// commutative operation. Without one (an invalid operation such as
// inf - inf) the default NaN 0xfff8000000000000, as on x86.
template <class... D>
double propagated_nan(double result, D... operands) {
  if (!std::isnan(result)) return result;
  double last = result;
  ((last = std::isnan(operands) ? operands : last), ...);
  return __builtin_bit_cast(double, __builtin_bit_cast(unsigned long long, last) | 0x0008000000000000ull);
}

}  // namespace cusim::detail

// Integers and bits.
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
// The low 32 bits of the product of the low 24 bits (signed for __mul24).
inline int __mul24(int a, int b) {
  const auto low24 = [](int v) { return static_cast<long long>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8); };
  return static_cast<int>(static_cast<std::uint32_t>(low24(a) * low24(b)));
}
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline unsigned int __sad(int x, int y, unsigned int z) {
  return z + static_cast<unsigned int>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// The compiler's builtins rather than <bit>: a project's C++17 .cpp files
// include this header too, through cuda_runtime.h (toolchain.cxx17_host_files).
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
// The position of the |offset|-th set bit of `mask` counted from bit `base`
// (itself included) towards the high bits (offset > 0) or the low bits
// (offset < 0); for offset 0, `base` if that bit is set. 0xffffffff if
// there is none (PTX's fns.b32).
inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (base > 31) return 0xffffffffu;
  if (offset == 0) return (mask >> base & 1u) != 0 ? base : 0xffffffffu;
  const int step = offset > 0 ? 1 : -1;
  long long remaining = offset > 0 ? offset : -static_cast<long long>(offset);
  for (int bit = static_cast<int>(base); bit >= 0 && bit < 32; bit += step) {
    if ((mask >> bit & 1u) != 0 && --remaining == 0) return static_cast<unsigned int>(bit);
  }
  return 0xffffffffu;
}
// Byte n of the result is byte (s >> 4n) & 7 of the 8 bytes {y:x}.
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; ++n) r |= static_cast<unsigned int>((bytes >> (8 * ((s >> (4 * n)) & 7u))) & 0xffu) << (8 * n);
  return r;
}
// The 64 bits {hi:lo} shifted left (the high word kept) or right (the low word kept).
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}

// Reinterpretations.
inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
inline unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
inline float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
inline int __double2hiint(double x) { return static_cast<int>(__builtin_bit_cast(unsigned long long, x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__builtin_bit_cast(unsigned long long, x)); }
inline double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, (static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                               static_cast<unsigned int>(lo));
}

// Conversions and arithmetic in each rounding mode: _rn (to nearest even),
// _rz (toward zero), _ru (up), _rd (down).
#define CUSIM_ROUNDED_(suffix, mode)                                                                           \
  inline int __float2int_##suffix(float x) { return cusim::detail::saturating_cast<int>(cusim::detail::with_rounding<float>(mode, [](auto x) { return std::nearbyint(x); }, x)); } \
  inline unsigned int __float2uint_##suffix(float x) {                                                        \
    return cusim::detail::saturating_cast<unsigned int>(cusim::detail::with_rounding<float>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline long long __float2ll_##suffix(float x) {                                                             \
    return cusim::detail::saturating_cast<long long>(cusim::detail::with_rounding<float>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline unsigned long long __float2ull_##suffix(float x) {                                                   \
    return cusim::detail::saturating_cast<unsigned long long>(cusim::detail::with_rounding<float>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline int __double2int_##suffix(double x) { return cusim::detail::saturating_cast<int>(cusim::detail::with_rounding<double>(mode, [](auto x) { return std::nearbyint(x); }, x)); } \
  inline unsigned int __double2uint_##suffix(double x) {                                                      \
    return cusim::detail::saturating_cast<unsigned int>(cusim::detail::with_rounding<double>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline long long __double2ll_##suffix(double x) {                                                           \
    return cusim::detail::saturating_cast<long long>(cusim::detail::with_rounding<double>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline unsigned long long __double2ull_##suffix(double x) {                                                 \
    return cusim::detail::saturating_cast<unsigned long long>(cusim::detail::with_rounding<double>(mode, [](auto x) { return std::nearbyint(x); }, x)); \
  }                                                                                                            \
  inline float __int2float_##suffix(int x) { return cusim::detail::with_rounding<float>(mode, [](auto x) { return static_cast<float>(x); }, x); } \
  inline float __uint2float_##suffix(unsigned int x) { return cusim::detail::with_rounding<float>(mode, [](auto x) { return static_cast<float>(x); }, x); } \
  inline float __ll2float_##suffix(long long x) { return cusim::detail::with_rounding<float>(mode, [](auto x) { return static_cast<float>(x); }, x); } \
  inline float __ull2float_##suffix(unsigned long long x) { return cusim::detail::with_rounding<float>(mode, [](auto x) { return static_cast<float>(x); }, x); } \
  inline double __ll2double_##suffix(long long x) { return cusim::detail::with_rounding<double>(mode, [](auto x) { return static_cast<double>(x); }, x); } \
  inline double __ull2double_##suffix(unsigned long long x) { return cusim::detail::with_rounding<double>(mode, [](auto x) { return static_cast<double>(x); }, x); } \
  inline float __double2float_##suffix(double x) { return cusim::detail::with_rounding<float>(mode, [](auto x) { return static_cast<float>(x); }, x); } \
  inline float __fadd_##suffix(float a, float b) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a, auto b) { return a + b; }, a, b)); } \
  inline float __fsub_##suffix(float a, float b) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a, auto b) { return a - b; }, a, b)); } \
  inline float __fmul_##suffix(float a, float b) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a, auto b) { return a * b; }, a, b)); } \
  inline float __fdiv_##suffix(float a, float b) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a, auto b) { return a / b; }, a, b)); } \
  inline float __frcp_##suffix(float a) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a) { return 1.0f / a; }, a)); } \
  inline float __fsqrt_##suffix(float a) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a) { return std::sqrt(a); }, a)); } \
  inline float __fmaf_##suffix(float a, float b, float c) { return cusim::detail::canonical_nan(cusim::detail::with_rounding<float>(mode, [](auto a, auto b, auto c) { return std::fma(a, b, c); }, a, b, c)); } \
  inline double __dadd_##suffix(double a, double b) { return cusim::detail::propagated_nan(cusim::detail::with_rounding<double>(mode, [](auto a, auto b) { return a + b; }, a, b), a, b); } \
  inline double __dsub_##suffix(double a, double b) { return cusim::detail::propagated_nan(cusim::detail::with_rounding<double>(mode, [](auto a, auto b) { return a - b; }, a, b), a, b); } \
  inline double __dmul_##suffix(double a, double b) { return cusim::detail::propagated_nan(cusim::detail::with_rounding<double>(mode, [](auto a, auto b) { return a * b; }, a, b), a, b); } \
  inline double __ddiv_##suffix(double a, double b) { return cusim::detail::propagated_nan(cusim::detail::with_rounding<double>(mode, [](auto a, auto b) { return a / b; }, a, b), b, a); } \
  inline double __drcp_##suffix(double a) { return cusim::detail::with_rounding<double>(mode, [](auto a) { return 1.0 / a; }, a); } \
  inline double __dsqrt_##suffix(double a) { return cusim::detail::with_rounding<double>(mode, [](auto a) { return std::sqrt(a); }, a); } \
  inline double __fma_##suffix(double a, double b, double c) { return cusim::detail::propagated_nan(cusim::detail::with_rounding<double>(mode, [](auto a, auto b, auto c) { return std::fma(a, b, c); }, a, b, c), a, c, b); }
CUSIM_ROUNDED_(rn, FE_TONEAREST)
CUSIM_ROUNDED_(rz, FE_TOWARDZERO)
CUSIM_ROUNDED_(ru, FE_UPWARD)
CUSIM_ROUNDED_(rd, FE_DOWNWARD)
#undef CUSIM_ROUNDED_

inline float __frsqrt_rn(float a) { return 1.0f / std::sqrt(a); }
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned int x) { return x; }
inline int __float2int(float x) { return __float2int_rz(x); }
