// CUDA's SIMD-within-a-word intrinsics (__vadd2, __vabsdiffu4, __vcmpgts2,
// ... on two 16-bit or four 8-bit lanes of an unsigned int) and the dot
// products __dp4a and __dp2a_lo/_hi, lane by lane in plain integers. What
// each does is in the CUDA Math API's "SIMD Intrinsics" and "Integer
// Intrinsics"; diff.intrinsics.edge_values_simd compares them with an H100.
#pragma once
#include <cstdint>

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

// The DPX intrinsics of CUDA 12 (hardware on sm_90, emulated before):
// three-way minimum and maximum, an add followed by one, and a maximum or
// minimum that also says which input it took; on one 32-bit lane (_s32,
// _u32) or two 16-bit ones (_s16x2, _u16x2). Sums wrap in the lane; _relu
// clamps the result at 0.
namespace cusim::detail::dpx {

// The word whose lanes of type L are f(lanes of a, b and c).
template <class L, class F>
constexpr unsigned lanewise(unsigned a, unsigned b, unsigned c, F f) {
  constexpr int bits = 8 * sizeof(L);
  constexpr unsigned mask = bits == 32 ? ~0u : (1u << bits) - 1u;
  unsigned r = 0;
  for (int i = 0; i < 32 / bits; ++i) {
    const auto at = [i](unsigned w) { return static_cast<L>(w >> (i * bits)); };
    r |= (static_cast<unsigned>(static_cast<L>(f(at(a), at(b), at(c)))) & mask) << (i * bits);
  }
  return r;
}
// The same for words of type T (int or unsigned int).
template <class L, class T, class F>
constexpr T apply(T a, T b, T c, F f) {
  return static_cast<T>(lanewise<L>(static_cast<unsigned>(a), static_cast<unsigned>(b), static_cast<unsigned>(c), f));
}
template <class L>
constexpr L larger(L x, L y) { return x > y ? x : y; }
template <class L>
constexpr L smaller(L x, L y) { return x < y ? x : y; }
template <class L>
constexpr L relu(L x) { return x > 0 ? x : L(0); }
template <class L>
constexpr L sum(L x, L y) { return static_cast<L>(static_cast<unsigned>(x) + static_cast<unsigned>(y)); }

}  // namespace cusim::detail::dpx

// name(a, b, c), or name(a, b) with c = 0, whose lanes of type L are `expression` in x, y and z.
#define CUSIM_DPX_LANES_(L, expression) \
  [](L x, L y, [[maybe_unused]] L z) { using namespace cusim::detail::dpx; return expression; }
#define CUSIM_DPX_(name, T, L, expression) \
  inline T name(T a, T b, T c) { return cusim::detail::dpx::apply<L>(a, b, c, CUSIM_DPX_LANES_(L, expression)); }
#define CUSIM_DPX_TWO_(name, T, L, expression) \
  inline T name(T a, T b) { return cusim::detail::dpx::apply<L>(a, b, static_cast<T>(0), CUSIM_DPX_LANES_(L, expression)); }
// __vibmax/__vibmin: the larger (smaller) lane, and a flag: a >= b (a <= b)
// for a 32-bit lane; for each half of a 16x2, b >= a (b <= a), as an H200
// with CUDA 13 sets them (the Math API's documentation gives a >= b for
// both: for a = 0x00050005, b = 0x00050004, __vibmax_s16x2 sets pred_hi
// and clears pred_lo).
#define CUSIM_DPX_PICK_32_(name, T, holds) \
  inline T name(T a, T b, bool* pred) {    \
    *pred = a holds b;                     \
    return *pred ? a : b;                  \
  }
#define CUSIM_DPX_PICK_16X2_(name, L, holds)                                                                  \
  inline unsigned name(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) {                                \
    *pred_lo = static_cast<L>(b) holds static_cast<L>(a);                                                     \
    *pred_hi = static_cast<L>(b >> 16) holds static_cast<L>(a >> 16);                                         \
    return cusim::detail::dpx::lanewise<L>(a, b, 0u, [](L x, L y, L) { return x holds y ? x : y; });         \
  }
#define CUSIM_DPX_KIND_(T, L, kind)                                         \
  CUSIM_DPX_(__vimax3_##kind, T, L, larger(larger(x, y), z))                \
  CUSIM_DPX_(__vimin3_##kind, T, L, smaller(smaller(x, y), z))              \
  CUSIM_DPX_(__viaddmax_##kind, T, L, larger(sum(x, y), z))                 \
  CUSIM_DPX_(__viaddmin_##kind, T, L, smaller(sum(x, y), z))
// Signed lanes have the _relu forms too.
#define CUSIM_DPX_SIGNED_KIND_(T, L, kind)                                      \
  CUSIM_DPX_KIND_(T, L, kind)                                                   \
  CUSIM_DPX_(__vimax3_##kind##_relu, T, L, relu(larger(larger(x, y), z)))       \
  CUSIM_DPX_(__vimin3_##kind##_relu, T, L, relu(smaller(smaller(x, y), z)))     \
  CUSIM_DPX_(__viaddmax_##kind##_relu, T, L, relu(larger(sum(x, y), z)))        \
  CUSIM_DPX_(__viaddmin_##kind##_relu, T, L, relu(smaller(sum(x, y), z)))       \
  CUSIM_DPX_TWO_(__vimax_##kind##_relu, T, L, relu(larger(x, y)))              \
  CUSIM_DPX_TWO_(__vimin_##kind##_relu, T, L, relu(smaller(x, y)))
CUSIM_DPX_SIGNED_KIND_(int, std::int32_t, s32)
CUSIM_DPX_KIND_(unsigned int, std::uint32_t, u32)
CUSIM_DPX_SIGNED_KIND_(unsigned int, std::int16_t, s16x2)
CUSIM_DPX_KIND_(unsigned int, std::uint16_t, u16x2)
CUSIM_DPX_PICK_32_(__vibmax_s32, int, >=)
CUSIM_DPX_PICK_32_(__vibmin_s32, int, <=)
CUSIM_DPX_PICK_32_(__vibmax_u32, unsigned int, >=)
CUSIM_DPX_PICK_32_(__vibmin_u32, unsigned int, <=)
CUSIM_DPX_PICK_16X2_(__vibmax_s16x2, std::int16_t, >=)
CUSIM_DPX_PICK_16X2_(__vibmin_s16x2, std::int16_t, <=)
CUSIM_DPX_PICK_16X2_(__vibmax_u16x2, std::uint16_t, >=)
CUSIM_DPX_PICK_16X2_(__vibmin_u16x2, std::uint16_t, <=)
#undef CUSIM_DPX_SIGNED_KIND_
#undef CUSIM_DPX_KIND_
#undef CUSIM_DPX_PICK_16X2_
#undef CUSIM_DPX_PICK_32_
#undef CUSIM_DPX_TWO_
#undef CUSIM_DPX_
#undef CUSIM_DPX_LANES_
