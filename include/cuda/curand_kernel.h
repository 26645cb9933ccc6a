// cuRAND's device API: the pseudo-random generators a kernel keeps in its
// own state (XORWOW, the default curandState; Philox4_32_10; MRG32k3a) and
// the distributions drawn from them. The generators, their seeding
// (curand_init's seed, subsequence and offset), skipahead and the integer
// and uniform outputs follow cuRAND's definitions bit for bit, so a kernel
// draws the numbers it draws on a GPU; normal and log-normal values use the
// same Box-Muller transform, with the host's logf/sinf/cosf where a GPU uses
// its own approximations (they can differ in the last bits).
//
// Not provided: the quasi-random generators (Sobol, whose direction vectors
// come from the host API), MTGP32, curand_poisson and curand_discrete (see
// docs/libraries.md). <curand.h>'s host API is not provided either.
#pragma once
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_
#endif
#include <cmath>
#include <type_traits>

#include <cusim/detail/curand_skipahead.hpp>
#include <cusim/detail/device_math.hpp>
#include "curand.h"
#include "vector_functions.h"
#include "vector_types.h"

#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

#define CURAND_2POW32 (4294967296.f)
#define CURAND_2POW32_DOUBLE (4294967296.)
#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2PI (6.2831855f)
#define CURAND_2POW53_INV_2PI_DOUBLE (1.1102230246251565e-16 * 6.2831853071795860)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_2PI_DOUBLE (6.2831853071795860)
#define CURAND_SQRT2 (-1.4142135f)
#define CURAND_SQRT2_DOUBLE (-1.4142135623730951)

// The state layouts are cuRAND's, so that code sizing buffers with
// sizeof(curandState) or reading the Box-Muller cache works unchanged.
struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace cusim::detail::curand {

template <class State>
inline void clear_box_muller_cache(State* state) {
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

// ---- bits to uniform values: (0, 1], the ends as cuRAND places them ----

inline float uniform_float(unsigned int x) { return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }
inline double uniform_double(unsigned int x) { return x * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE; }
// 53 random bits from two draws.
inline double uniform_double(unsigned int x, unsigned int y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}

// ---- Box-Muller: two uniform draws to two standard normal values ----

// r = sqrt(-2 ln u) and the angle's sine and cosine, as a GPU computes them
// (the float angle in radians, the double one in half turns).
inline float2 polar_pair(float u, float angle) {
  const float r = sqrtf(-2.0f * logf(u));
  float2 result;
  __sincosf(angle, &result.x, &result.y);
  return float2{result.x * r, result.y * r};
}
inline double2 polar_pair_half_turns(double u, double half_turns) {
  const double r = sqrt(-2.0 * log(u));
  double2 result;
  sincospi(half_turns, &result.x, &result.y);
  return double2{result.x * r, result.y * r};
}

inline float2 box_muller(unsigned int x, unsigned int y) {
  return polar_pair(x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2),
                    y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2));
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  return polar_pair_half_turns(uniform_double(x0, x1), zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE);
}

// curand_normal and curand_log_normal hand out a Box-Muller pair one value
// at a time: the second is kept in the state, tagged with the distribution
// that made it, and returned by the next call of the same distribution.
// `flag` and `extra` name the float or the double pair's fields.
template <class Value, class State, class MakePair, class Transform>
inline Value cached(State* state, int State::*flag, Value State::*extra, int distribution, MakePair make_pair,
                    Transform transform) {
  if (state->*flag != distribution) {
    const auto v = make_pair(state);
    state->*extra = transform(v.y);
    state->*flag = distribution;
    return transform(v.x);
  }
  state->*flag = 0;
  return state->*extra;
}

inline float identity(float x) { return x; }
inline double identity_double(double x) { return x; }

struct log_normal_float {
  float mean, stddev;
  float operator()(float v) const { return expf(mean + (stddev * v)); }
};
struct log_normal_double {
  double mean, stddev;
  double operator()(double v) const { return exp(mean + (stddev * v)); }
};

template <class Vector, class Transform>
inline Vector transform_each(Vector v, Transform transform) {
  v.x = transform(v.x);
  v.y = transform(v.y);
  if constexpr (sizeof(Vector) >= 4 * sizeof(v.x)) {
    v.z = transform(v.z);
    v.w = transform(v.w);
  }
  return v;
}

// ---- Philox4x32-10: a counter-based generator (Salmon et al., SC'11) ----

inline uint4 philox_round(uint4 ctr, uint2 key) {
  const unsigned long long product0 = 0xD2511F53ull * ctr.x;
  const unsigned long long product1 = 0xCD9E8D57ull * ctr.z;
  const unsigned int hi0 = static_cast<unsigned int>(product0 >> 32), lo0 = static_cast<unsigned int>(product0);
  const unsigned int hi1 = static_cast<unsigned int>(product1 >> 32), lo1 = static_cast<unsigned int>(product1);
  return uint4{hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0};
}

inline uint4 philox_4x32_10(uint4 ctr, uint2 key) {
  for (int round = 0; round < 9; ++round) {
    ctr = philox_round(ctr, key);
    key.x += 0x9E3779B9u;
    key.y += 0xBB67AE85u;
  }
  return philox_round(ctr, key);
}

// Adds n to the 128-bit counter's low 64 bits, carrying into the high ones.
inline void philox_advance(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned long long low = (static_cast<unsigned long long>(s->ctr.y) << 32) | s->ctr.x;
  const unsigned long long sum = low + n;
  s->ctr.x = static_cast<unsigned int>(sum);
  s->ctr.y = static_cast<unsigned int>(sum >> 32);
  if (sum < low && ++s->ctr.z == 0) ++s->ctr.w;
}

// Adds n to the counter's high 64 bits: the subsequence.
inline void philox_advance_subsequence(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned long long high = ((static_cast<unsigned long long>(s->ctr.w) << 32) | s->ctr.z) + n;
  s->ctr.z = static_cast<unsigned int>(high);
  s->ctr.w = static_cast<unsigned int>(high >> 32);
}

inline void philox_refill(curandStatePhilox4_32_10_t* s) { s->output = philox_4x32_10(s->ctr, s->key); }

inline unsigned int lane(const uint4& v, unsigned int i) {
  switch (i) {
    case 0: return v.x;
    case 1: return v.y;
    case 2: return v.z;
    default: return v.w;
  }
}

// ---- MRG32k3a (L'Ecuyer 1999): two combined multiple recursive generators ----

constexpr unsigned long long mrg_m1 = 4294967087ull, mrg_m2 = 4294944443ull;
constexpr double mrg_norm = 2.3283065498378288e-10;

// One step; returns the combined value in [1, m1], as a double like cuRAND.
inline double mrg32k3a_step(curandStateMRG32k3a_t* s) {
  // a12*s1[1] - a13n*s1[0] mod m1, kept below 2^53 (810728 * m1 and 1403580 * m1 are).
  const unsigned long long p1 = (1403580ull * s->s1[1] + 810728ull * (mrg_m1 - s->s1[0])) % mrg_m1;
  s->s1[0] = s->s1[1];
  s->s1[1] = s->s1[2];
  s->s1[2] = static_cast<unsigned int>(p1);
  const unsigned long long p2 = (527612ull * s->s2[2] + 1370589ull * (mrg_m2 - s->s2[0])) % mrg_m2;
  s->s2[0] = s->s2[1];
  s->s2[1] = s->s2[2];
  s->s2[2] = static_cast<unsigned int>(p2);
  return p1 <= p2 ? static_cast<double>(p1) - static_cast<double>(p2) + static_cast<double>(mrg_m1)
                  : static_cast<double>(p1) - static_cast<double>(p2);
}

inline unsigned int mod_mul(unsigned int a, unsigned int b, unsigned long long m) {
  return static_cast<unsigned int>(static_cast<unsigned long long>(a) * b % m);
}

}  // namespace cusim::detail::curand

// ============================ XORWOW ============================

inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437;
  return state->v[4] + state->d;
}

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  cusim::detail::xorwow_skipahead(state->v, n, cusim::detail::curand_stride::element);
  state->d += 362437u * static_cast<unsigned int>(n);
}

// A subsequence is 2^67 elements; the Weyl counter moves by a multiple of 2^32.
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  cusim::detail::xorwow_skipahead(state->v, n, cusim::detail::curand_stride::subsequence);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW_t* state) {
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  cusim::detail::curand::clear_box_muller_cache(state);
}

// ========================= Philox4_32_10 =========================

inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  const unsigned int value = cusim::detail::curand::lane(state->output, state->STATE++);
  if (state->STATE == 4) {
    cusim::detail::curand::philox_advance(state, 1);
    cusim::detail::curand::philox_refill(state);
    state->STATE = 0;
  }
  return value;
}

// The next four values; the position within the block of four is kept.
inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 current = state->output;
  cusim::detail::curand::philox_advance(state, 1);
  cusim::detail::curand::philox_refill(state);
  const unsigned int from = state->STATE;
  unsigned int out[4];
  for (unsigned int i = 0; i < 4; ++i)
    out[i] = from + i < 4 ? cusim::detail::curand::lane(current, from + i)
                          : cusim::detail::curand::lane(state->output, from + i - 4);
  return uint4{out[0], out[1], out[2], out[3]};
}

inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  cusim::detail::curand::philox_advance(state, n);
  cusim::detail::curand::philox_refill(state);
}

inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  cusim::detail::curand::philox_advance_subsequence(state, n);
  cusim::detail::curand::philox_refill(state);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10_t* state) {
  state->ctr = uint4{0, 0, 0, 0};
  state->key = uint2{static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32)};
  state->STATE = 0;
  cusim::detail::curand::clear_box_muller_cache(state);
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

// ============================ MRG32k3a ============================

inline unsigned int curand(curandStateMRG32k3a_t* state) {
  return static_cast<unsigned int>(cusim::detail::curand::mrg32k3a_step(state) * 1.000000048662);
}

inline void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::detail::mrg32k3a_skipahead(state->s1, state->s2, n, cusim::detail::curand_stride::element);
}

// A subsequence is 2^76 elements.
inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::detail::mrg32k3a_skipahead(state->s1, state->s2, n, cusim::detail::curand_stride::subsequence);
}

// A sequence is 2^127 elements.
inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  cusim::detail::mrg32k3a_skipahead(state->s1, state->s2, n, cusim::detail::curand_stride::sequence);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateMRG32k3a_t* state) {
  using cusim::detail::curand::mod_mul;
  using cusim::detail::curand::mrg_m1;
  using cusim::detail::curand::mrg_m2;
  for (int i = 0; i < 3; ++i) state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0) {
    const unsigned int x1 = static_cast<unsigned int>(seed) ^ 0x55555555u;
    const unsigned int x2 = static_cast<unsigned int>(seed >> 32) ^ 0xAAAAAAAAu;
    state->s1[0] = mod_mul(x1, state->s1[0], mrg_m1);
    state->s1[1] = mod_mul(x2, state->s1[1], mrg_m1);
    state->s1[2] = mod_mul(x1, state->s1[2], mrg_m1);
    state->s2[0] = mod_mul(x2, state->s2[0], mrg_m2);
    state->s2[1] = mod_mul(x1, state->s2[1], mrg_m2);
    state->s2[2] = mod_mul(x2, state->s2[2], mrg_m2);
  }
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  cusim::detail::curand::clear_box_muller_cache(state);
}

// ============================ uniform ============================

inline float curand_uniform(curandStateXORWOW_t* state) { return cusim::detail::curand::uniform_float(curand(state)); }
inline float curand_uniform(curandStatePhilox4_32_10_t* state) {
  return cusim::detail::curand::uniform_float(curand(state));
}
inline float curand_uniform(curandStateMRG32k3a_t* state) {
  return static_cast<float>(cusim::detail::curand::mrg32k3a_step(state) * cusim::detail::curand::mrg_norm);
}

inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return cusim::detail::curand::uniform_double(x, y);
}
// cuRAND draws Philox's double from one 32-bit value (curand_uniform2_double
// and curand_uniform4_double use 53 bits).
inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return cusim::detail::curand::uniform_double(curand(state));
}
inline double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return cusim::detail::curand::mrg32k3a_step(state) * cusim::detail::curand::mrg_norm;
}

inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  using cusim::detail::curand::uniform_float;
  return float4{uniform_float(x.x), uniform_float(x.y), uniform_float(x.z), uniform_float(x.w)};
}
inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  using cusim::detail::curand::uniform_double;
  return double2{uniform_double(x.x, x.y), uniform_double(x.z, x.w)};
}
inline double4 curand_uniform4_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  const uint4 y = curand4(state);
  using cusim::detail::curand::uniform_double;
  return double4{uniform_double(x.x, x.y), uniform_double(x.z, x.w), uniform_double(y.x, y.y),
                 uniform_double(y.z, y.w)};
}

// ==================== normal pairs per generator ====================

namespace cusim::detail::curand {

// XORWOW and Philox: two 32-bit draws (MRG32k3a's overload below is preferred for its state).
template <class State>
inline float2 normal_pair(State* state) {
  const unsigned int x = ::curand(state);
  const unsigned int y = ::curand(state);
  return box_muller(x, y);
}
inline float2 normal_pair(curandStateMRG32k3a_t* state) {
  const float u = ::curand_uniform(state);
  return polar_pair(u, ::curand_uniform(state) * CURAND_2PI);
}

inline double2 normal_pair_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = ::curand(state);
  const unsigned int x1 = ::curand(state);
  const unsigned int y0 = ::curand(state);
  const unsigned int y1 = ::curand(state);
  return box_muller_double(x0, x1, y0, y1);
}
inline double2 normal_pair_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = ::curand4(state);
  return box_muller_double(x.x, x.y, x.z, x.w);
}
inline double2 normal_pair_double(curandStateMRG32k3a_t* state) {
  const double u = ::curand_uniform_double(state);
  return polar_pair_half_turns(u, ::curand_uniform_double(state) * 2.0);
}

inline float4 normal_quad(curandStatePhilox4_32_10_t* state) {
  const uint4 x = ::curand4(state);
  const float2 a = box_muller(x.x, x.y);
  const float2 b = box_muller(x.z, x.w);
  return float4{a.x, a.y, b.x, b.y};
}
inline double4 normal_quad_double(curandStatePhilox4_32_10_t* state) {
  const double2 a = normal_pair_double(state);
  const double2 b = normal_pair_double(state);
  return double4{a.x, a.y, b.x, b.y};
}

template <class State>
inline constexpr bool is_curand_pseudo_state =
    std::is_same_v<State, curandStateXORWOW_t> || std::is_same_v<State, curandStatePhilox4_32_10_t> ||
    std::is_same_v<State, curandStateMRG32k3a_t>;

}  // namespace cusim::detail::curand

// ======================== normal, log-normal ========================
// One template per function keeps the three generators' overloads in one
// place; the pair each draws is the generator's own (normal_pair above).

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline float curand_normal(State* state) {
  return cusim::detail::curand::cached<float>(
      state, &State::boxmuller_flag, &State::boxmuller_extra, EXTRA_FLAG_NORMAL, [](State* s) { return cusim::detail::curand::normal_pair(s); },
      cusim::detail::curand::identity);
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline double curand_normal_double(State* state) {
  return cusim::detail::curand::cached<double>(
      state, &State::boxmuller_flag_double, &State::boxmuller_extra_double, EXTRA_FLAG_NORMAL, [](State* s) { return cusim::detail::curand::normal_pair_double(s); },
      cusim::detail::curand::identity_double);
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline float2 curand_normal2(State* state) {
  return cusim::detail::curand::normal_pair(state);
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline double2 curand_normal2_double(State* state) {
  return cusim::detail::curand::normal_pair_double(state);
}

inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) { return cusim::detail::curand::normal_quad(state); }
inline double4 curand_normal4_double(curandStatePhilox4_32_10_t* state) {
  return cusim::detail::curand::normal_quad_double(state);
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline float curand_log_normal(State* state, float mean, float stddev) {
  return cusim::detail::curand::cached<float>(
      state, &State::boxmuller_flag, &State::boxmuller_extra, EXTRA_FLAG_LOG_NORMAL, [](State* s) { return cusim::detail::curand::normal_pair(s); },
      cusim::detail::curand::log_normal_float{mean, stddev});
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline double curand_log_normal_double(State* state, double mean, double stddev) {
  return cusim::detail::curand::cached<double>(
      state, &State::boxmuller_flag_double, &State::boxmuller_extra_double, EXTRA_FLAG_LOG_NORMAL, [](State* s) { return cusim::detail::curand::normal_pair_double(s); },
      cusim::detail::curand::log_normal_double{mean, stddev});
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline float2 curand_log_normal2(State* state, float mean, float stddev) {
  return cusim::detail::curand::transform_each(cusim::detail::curand::normal_pair(state),
                                               cusim::detail::curand::log_normal_float{mean, stddev});
}

template <class State, class = std::enable_if_t<cusim::detail::curand::is_curand_pseudo_state<State>>>
inline double2 curand_log_normal2_double(State* state, double mean, double stddev) {
  return cusim::detail::curand::transform_each(cusim::detail::curand::normal_pair_double(state),
                                               cusim::detail::curand::log_normal_double{mean, stddev});
}

inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  return cusim::detail::curand::transform_each(cusim::detail::curand::normal_quad(state),
                                               cusim::detail::curand::log_normal_float{mean, stddev});
}
inline double4 curand_log_normal4_double(curandStatePhilox4_32_10_t* state, double mean, double stddev) {
  return cusim::detail::curand::transform_each(cusim::detail::curand::normal_quad_double(state),
                                               cusim::detail::curand::log_normal_double{mean, stddev});
}
