#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cuda_fp16.h>
#include <math_constants.h>

namespace {
std::uint16_t bits_of(float f) { return __half_as_ushort(__float2half(f)); }
}  // namespace

TEST_CASE("fp16: every half converts to float and back unchanged (NaNs become the canonical NaN)",
          "[surface][fp16]") {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = __half2float(__ushort_as_half(static_cast<unsigned short>(h)));
    const bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
    INFO("half bits " << h);
    REQUIRE(bits_of(f) == (nan ? 0x7fffu : h));
  }
}

TEST_CASE("fp16: float to half rounds to nearest, ties to even, as cvt.rn.f16.f32", "[surface][fp16]") {
  CHECK(bits_of(1.0f) == 0x3c00);
  CHECK(bits_of(-0.0f) == 0x8000);
  CHECK(bits_of(65504.0f) == 0x7bff);           // the largest half
  CHECK(bits_of(65519.99f) == 0x7bff);          // below the midpoint to 65536
  CHECK(bits_of(65520.0f) == 0x7c00);           // the midpoint: ties to even, which is infinity
  CHECK(bits_of(std::ldexp(1.0f, -24)) == 0x0001);   // the smallest subnormal
  CHECK(bits_of(std::ldexp(1.0f, -25)) == 0x0000);   // half of it: ties to even (zero)
  CHECK(bits_of(std::ldexp(1.5f, -25)) == 0x0001);   // above the tie
  CHECK(bits_of(std::ldexp(3.0f, -25)) == 0x0002);   // 1.5 units: ties to even (2)
  CHECK(bits_of(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie between 1 and its successor: even
  CHECK(bits_of(1.0f + std::ldexp(3.0f, -11)) == 0x3c02);      // tie between odd and even: even
  CHECK(bits_of(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)) == 0x0400);  // rounds up into the normals
  CHECK(bits_of(CUDART_INF_F) == 0x7c00);
  CHECK(bits_of(-CUDART_INF_F) == 0xfc00);
  CHECK(bits_of(CUDART_NAN_F) == 0x7fff);
}

// The compiler's own IEEE half, as the reference: g++ before 13 has
// _Float16 in C only, but on arm64 __fp16 is the same format.
#if defined(__aarch64__)
#define CUSIM_COMPILER_HALF __fp16
#elif defined(__FLT16_MAX__)
#define CUSIM_COMPILER_HALF _Float16
#endif

#ifdef CUSIM_COMPILER_HALF
TEST_CASE("fp16: float to half agrees with the compiler's own half type on a sweep of floats", "[surface][fp16]") {
  // Every 257th bit pattern: all exponents, many mantissas, both signs.
  for (std::uint64_t b = 0; b <= 0xffffffffu; b += 257) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(b));
    if (std::isnan(f)) continue;
    const auto expected = std::bit_cast<std::uint16_t>(static_cast<CUSIM_COMPILER_HALF>(f));
    if (bits_of(f) != expected) {
      INFO("float bits " << b);
      REQUIRE(bits_of(f) == expected);
    }
  }
}
#endif

TEST_CASE("fp16: arithmetic rounds once, comparisons are IEEE's", "[surface][fp16]") {
  const __half one = 1.0f, third = __float2half(1.0f / 3.0f);
  CHECK(__half2float(one + one) == 2.0f);
  CHECK(__half_as_ushort(third) == 0x3555);
  CHECK(__half_as_ushort(__hmul(third, __float2half(3.0f))) == 0x3c00);
  CHECK(__half2float(__hfma(__float2half(2.0f), __float2half(3.0f), one)) == 7.0f);
  CHECK(__half2float(__hadd(__float2half(65504.0f), __float2half(8.0f))) == 65504.0f);  // below the midpoint
  CHECK(__hisinf(__hadd(__float2half(65504.0f), __float2half(16.0f))) == 1);           // the midpoint: to even, inf
  const __half nan = CUDART_NAN_FP16;
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(__hne(nan, one));  // ordered: false with a NaN
  CHECK(__hisnan(nan));
  CHECK(__half2float(-one) == -1.0f);
  const __half2 pair = __floats2half2_rn(1.5f, -2.0f);
  const float2 back = __half22float2(__hmul2(pair, pair));
  CHECK(back.x == 2.25f);
  CHECK(back.y == 4.0f);
  CHECK(sizeof(__half) == 2);
  CHECK(sizeof(__half2) == 4);
  CHECK(alignof(__half2) == 4);
}

TEST_CASE("math_constants: the special values have CUDA's bit patterns", "[surface][math]") {
  CHECK(std::bit_cast<std::uint32_t>(CUDART_NAN_F) == 0x7fffffffu);
  CHECK(std::bit_cast<std::uint64_t>(CUDART_NAN) == 0xfff8000000000000ull);
  CHECK(std::bit_cast<std::uint32_t>(CUDART_NEG_ZERO_F) == 0x80000000u);
  CHECK(CUDART_MIN_DENORM_F == std::ldexp(1.0f, -149));
  CHECK(CUDART_PI_F == 3.14159265358979f);
  static_assert(CUDART_INF > 1e308, "usable in constant expressions");
}
