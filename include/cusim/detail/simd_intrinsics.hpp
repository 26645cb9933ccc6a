// CUDA's SIMD-within-a-word intrinsics (__vadd2, __vabsdiffu4, __vcmpgts2,
// ... on two 16-bit or four 8-bit lanes of an unsigned int) and the dot
// products __dp4a and __dp2a_lo/_hi, lane by lane in plain integers. What
// each does is in the CUDA Math API's "SIMD Intrinsics" and "Integer
// Intrinsics"; diff.intrinsics.edge_values_simd compares them with an H100.
#pragma once
#include "vector_types.h"

namespace cusim::detail::simd {

template <int Bits>
constexpr unsigned lane_mask = (1u << Bits) - 1u;

template <int Bits, bool Signed>
constexpr int lane(unsigned v, int i) {
  const int u = static_cast<int>((v >> (i * Bits)) & lane_mask<Bits>);
  return Signed && u >= (1 << (Bits - 1)) ? u - (1 << Bits) : u;
}

template <int Bits>
constexpr int saturate_signed(int v) {
  const int high = (1 << (Bits - 1)) - 1, low = -(1 << (Bits - 1));
  return v > high ? high : v < low ? low : v;
}
template <int Bits>
constexpr int saturate_unsigned(int v) {
  const int high = (1 << Bits) - 1;
  return v > high ? high : v < 0 ? 0 : v;
}

// The word whose lane i is f(lane i of a, lane i of b), cut to the lane's width.
template <int Bits, bool Signed, class F>
constexpr unsigned lanewise(unsigned a, unsigned b, F f) {
  unsigned r = 0;
  for (int i = 0; i < 32 / Bits; ++i) {
    r |= (static_cast<unsigned>(f(lane<Bits, Signed>(a, i), lane<Bits, Signed>(b, i))) & lane_mask<Bits>) << (i * Bits);
  }
  return r;
}
// The sum over the lanes of f(lane of a, lane of b).
template <int Bits, bool Signed, class F>
constexpr unsigned lane_sum(unsigned a, unsigned b, F f) {
  unsigned r = 0;
  for (int i = 0; i < 32 / Bits; ++i) r += static_cast<unsigned>(f(lane<Bits, Signed>(a, i), lane<Bits, Signed>(b, i)));
  return r;
}

constexpr int absolute(int x) { return x < 0 ? -x : x; }

}  // namespace cusim::detail::simd

// For n lanes of `bits` bits: SIGNED(f) and UNSIGNED(f) apply f(x, y) to
// each pair of lanes read signed or unsigned.
#define CUSIM_SIMD_OP_(name, signedness, expression)                                                    \
  inline unsigned name(unsigned a, unsigned b) {                                                       \
    return cusim::detail::simd::lanewise<CUSIM_SIMD_BITS_, signedness>(                                \
        a, b, []([[maybe_unused]] int x, [[maybe_unused]] int y) { return expression; });             \
  }
#define CUSIM_SIMD_UNARY_(name, expression)                                                             \
  inline unsigned name(unsigned a) {                                                                   \
    return cusim::detail::simd::lanewise<CUSIM_SIMD_BITS_, true>(a, 0u, [](int x, int) { return expression; }); \
  }
#define CUSIM_SIMD_COMPARE_(suffix, signedness, holds)                                                  \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vcmp, suffix), signedness, (holds) ? -1 : 0)                       \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vset, suffix), signedness, (holds) ? 1 : 0)
#define CUSIM_SIMD_NAME_(prefix, suffix) CUSIM_SIMD_PASTE_(prefix, suffix, CUSIM_SIMD_LANES_)
#define CUSIM_SIMD_PASTE_(prefix, suffix, lanes) CUSIM_SIMD_PASTE2_(prefix, suffix, lanes)
#define CUSIM_SIMD_PASTE2_(prefix, suffix, lanes) prefix##suffix##lanes
#define CUSIM_SIMD_FUNCTIONS_                                                                            \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vadd, ), false, x + y)                                              \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vaddss, ), true, cusim::detail::simd::saturate_signed<CUSIM_SIMD_BITS_>(x + y)) \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vaddus, ), false, cusim::detail::simd::saturate_unsigned<CUSIM_SIMD_BITS_>(x + y)) \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vsub, ), false, x - y)                                              \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vsubss, ), true, cusim::detail::simd::saturate_signed<CUSIM_SIMD_BITS_>(x - y)) \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vsubus, ), false, cusim::detail::simd::saturate_unsigned<CUSIM_SIMD_BITS_>(x - y)) \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vabsdiffs, ), true, cusim::detail::simd::absolute(x - y))          \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vabsdiffu, ), false, cusim::detail::simd::absolute(x - y))         \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vavgs, ), true, (x + y + (x + y >= 0 ? 1 : 0)) >> 1)               \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vavgu, ), false, (x + y + 1) >> 1)                                 \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vhaddu, ), false, (x + y) >> 1)                                    \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vmaxs, ), true, x > y ? x : y)                                     \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vmaxu, ), false, x > y ? x : y)                                    \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vmins, ), true, x < y ? x : y)                                     \
  CUSIM_SIMD_OP_(CUSIM_SIMD_NAME_(__vminu, ), false, x < y ? x : y)                                    \
  CUSIM_SIMD_UNARY_(CUSIM_SIMD_NAME_(__vabs, ), cusim::detail::simd::absolute(x))                      \
  CUSIM_SIMD_UNARY_(CUSIM_SIMD_NAME_(__vabsss, ), cusim::detail::simd::saturate_signed<CUSIM_SIMD_BITS_>(cusim::detail::simd::absolute(x))) \
  CUSIM_SIMD_UNARY_(CUSIM_SIMD_NAME_(__vneg, ), -x)                                                    \
  CUSIM_SIMD_UNARY_(CUSIM_SIMD_NAME_(__vnegss, ), cusim::detail::simd::saturate_signed<CUSIM_SIMD_BITS_>(-x)) \
  CUSIM_SIMD_COMPARE_(eq, false, x == y)                                                                \
  CUSIM_SIMD_COMPARE_(ne, false, x != y)                                                                \
  CUSIM_SIMD_COMPARE_(ges, true, x >= y)                                                                \
  CUSIM_SIMD_COMPARE_(geu, false, x >= y)                                                               \
  CUSIM_SIMD_COMPARE_(gts, true, x > y)                                                                 \
  CUSIM_SIMD_COMPARE_(gtu, false, x > y)                                                                \
  CUSIM_SIMD_COMPARE_(les, true, x <= y)                                                                \
  CUSIM_SIMD_COMPARE_(leu, false, x <= y)                                                               \
  CUSIM_SIMD_COMPARE_(lts, true, x < y)                                                                 \
  CUSIM_SIMD_COMPARE_(ltu, false, x < y)                                                                \
  inline unsigned CUSIM_SIMD_NAME_(__vsads, )(unsigned a, unsigned b) {                                  \
    return cusim::detail::simd::lane_sum<CUSIM_SIMD_BITS_, true>(a, b, [](int x, int y) { return cusim::detail::simd::absolute(x - y); }); \
  }                                                                                                      \
  inline unsigned CUSIM_SIMD_NAME_(__vsadu, )(unsigned a, unsigned b) {                                  \
    return cusim::detail::simd::lane_sum<CUSIM_SIMD_BITS_, false>(a, b, [](int x, int y) { return cusim::detail::simd::absolute(x - y); }); \
  }

#define CUSIM_SIMD_BITS_ 16
#define CUSIM_SIMD_LANES_ 2
CUSIM_SIMD_FUNCTIONS_
#undef CUSIM_SIMD_BITS_
#undef CUSIM_SIMD_LANES_
#define CUSIM_SIMD_BITS_ 8
#define CUSIM_SIMD_LANES_ 4
CUSIM_SIMD_FUNCTIONS_
#undef CUSIM_SIMD_BITS_
#undef CUSIM_SIMD_LANES_
#undef CUSIM_SIMD_FUNCTIONS_
#undef CUSIM_SIMD_PASTE2_
#undef CUSIM_SIMD_PASTE_
#undef CUSIM_SIMD_NAME_
#undef CUSIM_SIMD_COMPARE_
#undef CUSIM_SIMD_UNARY_
#undef CUSIM_SIMD_OP_

// Four byte products (signed or unsigned) summed into c.
inline int __dp4a(int a, int b, int c) {
  return c + static_cast<int>(cusim::detail::simd::lane_sum<8, true>(
                 static_cast<unsigned>(a), static_cast<unsigned>(b), [](int x, int y) { return x * y; }));
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  return c + cusim::detail::simd::lane_sum<8, false>(a, b, [](int x, int y) { return x * y; });
}
inline int __dp4a(char4 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + unsigned(a.x) * b.x + unsigned(a.y) * b.y + unsigned(a.z) * b.z + unsigned(a.w) * b.w;
}
// The two 16-bit halves of a times two bytes of b (its low two for _lo,
// its high two for _hi), summed into c.
#define CUSIM_DP2A_(part, first_byte)                                                                   \
  inline int __dp2a_##part(int a, int b, int c) {                                                       \
    const auto ua = static_cast<unsigned>(a), ub = static_cast<unsigned>(b);                            \
    return c + cusim::detail::simd::lane<16, true>(ua, 0) * cusim::detail::simd::lane<8, true>(ub, first_byte) + \
           cusim::detail::simd::lane<16, true>(ua, 1) * cusim::detail::simd::lane<8, true>(ub, first_byte + 1); \
  }                                                                                                     \
  inline unsigned int __dp2a_##part(unsigned int a, unsigned int b, unsigned int c) {                   \
    return c + unsigned(cusim::detail::simd::lane<16, false>(a, 0) * cusim::detail::simd::lane<8, false>(b, first_byte)) + \
           unsigned(cusim::detail::simd::lane<16, false>(a, 1) * cusim::detail::simd::lane<8, false>(b, first_byte + 1)); \
  }                                                                                                     \
  inline int __dp2a_##part(short2 a, char4 b, int c) {                                                  \
    return c + a.x * (first_byte == 0 ? b.x : b.z) + a.y * (first_byte == 0 ? b.y : b.w);               \
  }                                                                                                     \
  inline unsigned int __dp2a_##part(ushort2 a, uchar4 b, unsigned int c) {                              \
    return c + unsigned(a.x) * (first_byte == 0 ? b.x : b.z) + unsigned(a.y) * (first_byte == 0 ? b.y : b.w); \
  }
CUSIM_DP2A_(lo, 0)
CUSIM_DP2A_(hi, 2)
#undef CUSIM_DP2A_
