// IEEE 754 binary16 and bfloat16 <-> binary32 conversions behind
// cuda_fp16.h and cuda_bf16.h, in plain
// integer arithmetic so they behave the same on every host CPU and compiler.
#pragma once
#include <cmath>
#include <cstdint>

namespace cusim::detail {

// The rounding of a conversion: cvt.rn / .rz / .rm / .rp.
enum class half_rounding { nearest_even, toward_zero, down, up };

// Whether the magnitude `kept` goes up by one unit, given what was cut off
// (`rest`, against `halfway`), the sign and the rounding.
constexpr bool rounds_away(std::uint32_t kept, std::uint32_t rest, std::uint32_t halfway, bool negative,
                           half_rounding mode) {
  switch (mode) {
    case half_rounding::nearest_even: return rest > halfway || (rest == halfway && (kept & 1u) != 0);
    case half_rounding::toward_zero: return false;
    case half_rounding::down: return rest != 0 && negative;
    case half_rounding::up: return rest != 0 && !negative;
  }
  return false;
}

// float -> half (cvt.rn.f16.f32 by default). NaNs become the canonical
// 0x7fff, as on a GPU; beyond the largest half (65504) a rounding toward
// zero stays there.
constexpr std::uint16_t float_to_half_bits(float value, half_rounding mode = half_rounding::nearest_even) {
  const std::uint32_t bits = __builtin_bit_cast(std::uint32_t, value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const bool negative = sign != 0;
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7fff;
  if (magnitude == 0x7f800000u) return sign | 0x7c00u;
  if (magnitude >= 0x47800000u) {  // 65536 and above: past the largest half whatever the rounding
    const bool to_infinity = mode == half_rounding::nearest_even || rounds_away(0, 1, 2, negative, mode);
    return sign | (to_infinity ? 0x7c00u : 0x7bffu);
  }
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half (2^-14): a multiple of 2^-24.
    if (magnitude < 0x33000000u) {  // below 2^-25: less than half a unit
      return static_cast<std::uint16_t>(sign | (magnitude != 0 && rounds_away(0, 1, 2, negative, mode) ? 1u : 0u));
    }
    const std::uint32_t exponent = magnitude >> 23;
    const std::uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent;  // 2^(e-127) * s/2^23 in units of 2^-24
    std::uint32_t units = significand >> shift;
    const std::uint32_t rest = significand & ((1u << shift) - 1u);
    if (rounds_away(units, rest, 1u << (shift - 1u), negative, mode)) ++units;
    return static_cast<std::uint16_t>(sign | units);
  }
  std::uint32_t half = ((magnitude >> 23) - 112u) << 10 | ((magnitude >> 13) & 0x3ffu);
  // A carry may reach the exponent, and past 65504 infinity: both right.
  if (rounds_away(half, magnitude & 0x1fffu, 0x1000u, negative, mode)) ++half;
  return static_cast<std::uint16_t>(sign | half);
}

// A finite double within float's range cut to a float with round-to-odd
// (truncated, its last bit set when anything was cut): it keeps enough to
// round correctly to a narrower format afterwards.
constexpr float float_rounded_to_odd(double value) {
  float cut = static_cast<float>(value);
  if (std::fabs(static_cast<double>(cut)) > std::fabs(value)) {
    cut = __builtin_bit_cast(float, __builtin_bit_cast(std::uint32_t, cut) - 1u);  // one float toward zero
  }
  if (static_cast<double>(cut) != value) cut = __builtin_bit_cast(float, __builtin_bit_cast(std::uint32_t, cut) | 1u);
  return cut;
}

// The mask of a pair comparison: 0xffff in each 16-bit half whose lane holds.
constexpr unsigned lane_masks(bool low, bool high) { return (low ? 0xffffu : 0u) | (high ? 0xffff0000u : 0u); }

// An integer as a float rounded to odd: exact up to 2^24, beyond that its
// top 24 bits with the last set when anything below was cut, which is
// enough to round it once to half or bfloat16 afterwards.
template <class I>
constexpr float integer_rounded_to_odd(I value) {
  bool negative = false;
  if constexpr (static_cast<I>(-1) < 0) negative = value < 0;
  const auto magnitude = negative ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
  int cut = 0;
  while ((magnitude >> cut) >= (1ull << 24)) ++cut;
  const unsigned long long kept = (magnitude >> cut) | ((magnitude & ((1ull << cut) - 1u)) != 0 ? 1u : 0u);
  const float rounded = static_cast<float>(kept) * static_cast<float>(1ull << cut);
  return negative ? -rounded : rounded;
}

// double -> half, rounded once: the double is first cut to a float with
// round-to-odd (truncated, its last bit set when anything was cut), which
// keeps enough to round correctly to half's 11 bits afterwards.
constexpr std::uint16_t double_to_half_bits(double value, half_rounding mode = half_rounding::nearest_even) {
  if (value != value) {  // a NaN keeps its sign and the top of its payload, quiet (0x7ff8... -> 0x7e00)
    const std::uint64_t bits = __builtin_bit_cast(std::uint64_t, value);
    return static_cast<std::uint16_t>(((bits >> 48) & 0x8000u) | 0x7e00u | ((bits >> 42) & 0x1ffu));
  }
  if (!(std::fabs(value) < 65536.0)) return float_to_half_bits(value > 0 ? 1e30f : -1e30f, mode);  // beyond any half
  return float_to_half_bits(float_rounded_to_odd(value), mode);
}

// half -> float: exact; a NaN becomes the canonical float NaN 0x7fffffff,
// as a GPU converts it.
constexpr float half_bits_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t exponent = (half >> 10) & 0x1fu;
  const std::uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 31) return __builtin_bit_cast(float, mantissa != 0 ? 0x7fffffffu : sign | 0x7f800000u);
  return __builtin_bit_cast(float, sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// bfloat16 (cuda_bf16.h): a float's top 16 bits. float -> bfloat16
// (cvt.rn.bf16.f32 by default) rounds the 16 cut off; NaNs become the
// canonical 0x7fff, as on a GPU.
constexpr std::uint16_t float_to_bfloat16_bits(float value, half_rounding mode = half_rounding::nearest_even) {
  const std::uint32_t bits = __builtin_bit_cast(std::uint32_t, value);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7fff;
  std::uint32_t kept = bits >> 16;
  // A carry may reach the exponent, and past the largest bfloat16 infinity: both right.
  if (rounds_away(magnitude >> 16, bits & 0xffffu, 0x8000u, (bits >> 31) != 0, mode)) ++kept;
  return static_cast<std::uint16_t>(kept);
}

constexpr std::uint16_t double_to_bfloat16_bits(double value, half_rounding mode = half_rounding::nearest_even) {
  if (value != value) {  // (from a double, unlike from a float) a NaN keeps its sign and payload's top, quiet
    const std::uint64_t bits = __builtin_bit_cast(std::uint64_t, value);
    return static_cast<std::uint16_t>(((bits >> 48) & 0x8000u) | 0x7fc0u | ((bits >> 45) & 0x3fu));
  }
  // Beyond float's range: as the largest float (past the largest bfloat16
  // too, with something cut off), which every rounding treats alike.
  if (!(std::fabs(value) < 3.4e38)) return float_to_bfloat16_bits(value > 0 ? 3.40282347e38f : -3.40282347e38f, mode);
  return float_to_bfloat16_bits(float_rounded_to_odd(value), mode);
}

// bfloat16 -> float: exact (its bits are the float's top half).
constexpr float bfloat16_bits_to_float(std::uint16_t bits) {
  return __builtin_bit_cast(float, static_cast<std::uint32_t>(bits) << 16);
}

// fp8 (cuda_fp8.h): e4m3 (bias 7, no infinity, NaN 0x7f, largest 448) and
// e5m2 (bias 15, half's top byte: infinity 0x7c, largest 57344).
struct fp8_format {
  int mantissa_bits, bias;
  bool has_infinity;
  std::uint8_t largest;  // the bits of the largest finite value
};
inline constexpr fp8_format fp8_e4m3{3, 7, false, 0x7e};
inline constexpr fp8_format fp8_e5m2{2, 15, true, 0x7b};

// fp8 -> double: exact.
constexpr double fp8_bits_to_double(std::uint8_t bits, fp8_format f) {
  const int exponent = (bits & 0x7f) >> f.mantissa_bits, mantissa = bits & ((1 << f.mantissa_bits) - 1);
  const int top = 0x7f >> f.mantissa_bits;
  double magnitude = 0;
  if (f.has_infinity && exponent == top) magnitude = mantissa == 0 ? HUGE_VAL : NAN;
  else if (!f.has_infinity && (bits & 0x7f) == 0x7f) magnitude = NAN;
  else {
    // (1.m or 0.m) * 2^(e - bias), the significand an integer of mantissa_bits + 1 bits.
    const int significand = exponent == 0 ? mantissa : mantissa | (1 << f.mantissa_bits);
    const int scale = (exponent == 0 ? 1 : exponent) - f.bias - f.mantissa_bits;
    magnitude = significand;
    for (int i = 0; i < (scale < 0 ? -scale : scale); ++i) magnitude = scale < 0 ? magnitude / 2 : magnitude * 2;
  }
  return (bits & 0x80) != 0 ? -magnitude : magnitude;
}

// double -> fp8, rounded to nearest even (the only rounding CUDA has for
// it). Beyond the largest finite value, `saturate` (__NV_SATFINITE) gives
// it, else e4m3 gives NaN and e5m2 infinity; a NaN gives 0x7f.
constexpr std::uint8_t double_to_fp8_bits(double value, fp8_format f, bool saturate) {
  if (value != value) return 0x7f;
  const std::uint8_t sign = value < 0 || (value == 0 && __builtin_signbit(value)) ? 0x80 : 0;
  const double magnitude = value < 0 ? -value : value;
  const auto overflow = [&] { return static_cast<std::uint8_t>(sign | (saturate ? f.largest : f.has_infinity ? 0x7c : 0x7f)); };
  if (magnitude > fp8_bits_to_double(f.largest, f) * 2) return overflow();  // infinity included
  // The unit in the last place at the value's exponent (the smallest
  // normal's for subnormals), and the value in units, rounded.
  const int lowest = 1 - f.bias;
  int exponent = lowest;
  double top = 2;  // 2^(exponent + 1)
  for (int i = lowest; i < 0; ++i) top /= 2;
  while (magnitude >= top) {
    ++exponent;
    top *= 2;
  }
  const double unit = top / 2 / (1 << f.mantissa_bits);
  const double units = magnitude / unit;
  double rounded = static_cast<double>(static_cast<long long>(units));
  const double rest = units - rounded;
  if (rest > 0.5 || (rest == 0.5 && static_cast<long long>(rounded) % 2 != 0)) ++rounded;
  // Units of the exponent's unit: a carry into the next binade still encodes right.
  long long code = static_cast<long long>(rounded) + (static_cast<long long>(exponent - lowest) << f.mantissa_bits);
  if (code > f.largest) return overflow();
  return static_cast<std::uint8_t>(sign | code);
}

}  // namespace cusim::detail
