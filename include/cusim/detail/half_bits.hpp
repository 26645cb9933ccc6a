// IEEE 754 binary16 <-> binary32 conversions behind cuda_fp16.h, in plain
// integer arithmetic so they behave the same on every host CPU and compiler.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace cusim::detail {

// float -> half, rounding to nearest, ties to even (cvt.rn.f16.f32). NaNs
// become the canonical 0x7fff, as on a GPU.
constexpr std::uint16_t float_to_half_bits(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7fff;
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and above round to infinity
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half (2^-14): a multiple of 2^-24. Shift the
    // float's full significand down to that unit and round.
    if (magnitude < 0x33000000u) return sign;  // below 2^-25: rounds to zero
    const std::uint32_t exponent = magnitude >> 23;
    const std::uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent;  // 2^(e-127) * s/2^23 in units of 2^-24
    std::uint32_t units = significand >> shift;
    const std::uint32_t rest = significand & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (units & 1u) != 0)) ++units;
    return static_cast<std::uint16_t>(sign | units);
  }
  std::uint32_t half = ((magnitude >> 23) - 112u) << 10 | ((magnitude >> 13) & 0x3ffu);
  const std::uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;  // a carry may reach the exponent: right
  return static_cast<std::uint16_t>(sign | half);
}

// half -> float: exact.
constexpr float half_bits_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t exponent = (half >> 10) & 0x1fu;
  const std::uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

}  // namespace cusim::detail
