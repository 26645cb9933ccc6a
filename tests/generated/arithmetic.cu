// Generated differential cases: arithmetic, conversion and bit intrinsics
// of every floating-point and integer type, on operands from edge classes.
//   arithmetic SEED CASES
// Each case is one operation (drawn from the table below) on operands drawn
// for its type: zeros, denormals, infinities, NaN payloads, extremes,
// halfway cases, the boundaries of integer conversions, ordinary values.
// Each result prints as its bit pattern and compares exactly: every
// operation here has one right answer on a GPU. The host's C library and
// C++'s operators keep an input NaN's payload where a GPU gives its
// canonical NaN (docs/differential-testing.md), so the results of the ops
// marked `libm` print a NaN as "nan"; the intrinsics' NaNs compare bit for
// bit. The golden comes from an H100 (tests/differential.txt);
// random_cases.hpp draws the cases from SEED.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "bits.hpp"
#include "random_cases.hpp"

// Operand formats: f float, d double, h half, b bfloat16, i 32-bit integer,
// l 64-bit integer.
enum operand_format : unsigned { f, d, h, b, i, l };

// X(name, operand format, nan printed as "nan" (libm), expression). The
// expression reads the operands as fa/fb/fc, da/db/dc, ha/hb/hc, ba/bb/bc,
// ia/ib/ic (int), ua/ub/uc (unsigned), la/lb (long long), ula/ulb.
#define CUSIM_FLOAT_OPS(X)                                                                                    \
  X(fadd_rn, f, 0, __fadd_rn(fa, fb)) X(fadd_rz, f, 0, __fadd_rz(fa, fb)) X(fadd_ru, f, 0, __fadd_ru(fa, fb)) \
  X(fadd_rd, f, 0, __fadd_rd(fa, fb)) X(fsub_rn, f, 0, __fsub_rn(fa, fb)) X(fsub_rz, f, 0, __fsub_rz(fa, fb)) \
  X(fsub_ru, f, 0, __fsub_ru(fa, fb)) X(fsub_rd, f, 0, __fsub_rd(fa, fb)) X(fmul_rn, f, 0, __fmul_rn(fa, fb)) \
  X(fmul_rz, f, 0, __fmul_rz(fa, fb)) X(fmul_ru, f, 0, __fmul_ru(fa, fb)) X(fmul_rd, f, 0, __fmul_rd(fa, fb)) \
  X(fdiv_rn, f, 0, __fdiv_rn(fa, fb)) X(fdiv_rz, f, 0, __fdiv_rz(fa, fb)) X(fdiv_ru, f, 0, __fdiv_ru(fa, fb)) \
  X(fdiv_rd, f, 0, __fdiv_rd(fa, fb)) X(fmaf_rn, f, 0, __fmaf_rn(fa, fb, fc))                                 \
  X(fmaf_rz, f, 0, __fmaf_rz(fa, fb, fc)) X(fmaf_ru, f, 0, __fmaf_ru(fa, fb, fc))                             \
  X(fmaf_rd, f, 0, __fmaf_rd(fa, fb, fc)) X(frcp_rn, f, 0, __frcp_rn(fa)) X(frcp_rz, f, 0, __frcp_rz(fa))     \
  X(frcp_ru, f, 0, __frcp_ru(fa)) X(frcp_rd, f, 0, __frcp_rd(fa)) X(fsqrt_rn, f, 0, __fsqrt_rn(fa))           \
  X(fsqrt_rz, f, 0, __fsqrt_rz(fa)) X(fsqrt_ru, f, 0, __fsqrt_ru(fa)) X(fsqrt_rd, f, 0, __fsqrt_rd(fa))       \
  X(saturatef, f, 0, __saturatef(fa)) X(float2int_rn, f, 0, __float2int_rn(fa))                               \
  X(float2int_rz, f, 0, __float2int_rz(fa)) X(float2int_ru, f, 0, __float2int_ru(fa))                         \
  X(float2int_rd, f, 0, __float2int_rd(fa)) X(float2uint_rn, f, 0, __float2uint_rn(fa))                       \
  X(float2uint_rz, f, 0, __float2uint_rz(fa)) X(float2uint_ru, f, 0, __float2uint_ru(fa))                     \
  X(float2uint_rd, f, 0, __float2uint_rd(fa)) X(float2ll_rn, f, 0, __float2ll_rn(fa))                         \
  X(float2ll_rz, f, 0, __float2ll_rz(fa)) X(float2ll_ru, f, 0, __float2ll_ru(fa))                             \
  X(float2ll_rd, f, 0, __float2ll_rd(fa)) X(float2ull_rn, f, 0, __float2ull_rn(fa))                           \
  X(float2ull_rz, f, 0, __float2ull_rz(fa)) X(float2ull_ru, f, 0, __float2ull_ru(fa))                         \
  X(float2ull_rd, f, 0, __float2ull_rd(fa)) X(float2half_rn, f, 0, __float2half_rn(fa))                       \
  X(float2half_rz, f, 0, __float2half_rz(fa)) X(float2half_ru, f, 0, __float2half_ru(fa))                     \
  X(float2half_rd, f, 0, __float2half_rd(fa)) X(float2bfloat16_rn, f, 0, __float2bfloat16_rn(fa))             \
  X(float2bfloat16_rz, f, 0, __float2bfloat16_rz(fa)) X(float2bfloat16_ru, f, 0, __float2bfloat16_ru(fa))     \
  X(float2bfloat16_rd, f, 0, __float2bfloat16_rd(fa)) X(float_plus, f, 1, fa + fb) X(float_minus, f, 1, fa - fb) \
  X(float_times, f, 1, fa * fb) X(float_divided, f, 1, fa / fb) X(fmaf, f, 1, fmaf(fa, fb, fc))               \
  X(sqrtf, f, 1, sqrtf(fa)) X(rintf, f, 1, rintf(fa)) X(truncf, f, 1, truncf(fa)) X(roundf, f, 1, roundf(fa)) \
  X(floorf, f, 1, floorf(fa)) X(ceilf, f, 1, ceilf(fa)) X(nearbyintf, f, 1, nearbyintf(fa))                   \
  X(fabsf, f, 1, fabsf(fa)) X(copysignf, f, 1, copysignf(fa, fb)) X(fminf, f, 1, fminf(fa, fb))               \
  X(fmaxf, f, 1, fmaxf(fa, fb)) X(fdimf, f, 1, fdimf(fa, fb)) X(fmodf, f, 1, fmodf(fa, fb))                   \
  X(remainderf, f, 1, remainderf(fa, fb)) X(nextafterf, f, 1, nextafterf(fa, fb))                             \
  X(ldexpf, f, 1, ldexpf(fa, int(ub % 301) - 150)) X(ilogbf, f, 0, ilogbf(fa)) X(logbf, f, 1, logbf(fa))      \
  X(frexpf, f, 1, frexp_bits(fa)) X(modff, f, 1, modf_bits(fa)) X(isnan_f, f, 0, int(isnan(fa)))              \
  X(isinf_f, f, 0, int(isinf(fa))) X(signbit_f, f, 0, int(signbit(fa)) != 0)

#define CUSIM_DOUBLE_OPS(X)                                                                                   \
  X(dadd_rn, d, 0, __dadd_rn(da, db)) X(dadd_rz, d, 0, __dadd_rz(da, db)) X(dadd_ru, d, 0, __dadd_ru(da, db)) \
  X(dadd_rd, d, 0, __dadd_rd(da, db)) X(dsub_rn, d, 0, __dsub_rn(da, db)) X(dsub_rz, d, 0, __dsub_rz(da, db)) \
  X(dmul_rn, d, 0, __dmul_rn(da, db)) X(dmul_ru, d, 0, __dmul_ru(da, db)) X(dmul_rd, d, 0, __dmul_rd(da, db)) \
  X(ddiv_rn, d, 0, __ddiv_rn(da, db)) X(ddiv_rz, d, 0, __ddiv_rz(da, db)) X(ddiv_ru, d, 0, __ddiv_ru(da, db)) \
  X(fma_rn, d, 0, __fma_rn(da, db, dc)) X(fma_rz, d, 0, __fma_rz(da, db, dc))                                 \
  X(fma_ru, d, 0, __fma_ru(da, db, dc)) X(fma_rd, d, 0, __fma_rd(da, db, dc)) X(drcp_rn, d, 0, __drcp_rn(da)) \
  X(drcp_rz, d, 0, __drcp_rz(da)) X(dsqrt_rn, d, 0, __dsqrt_rn(da)) X(dsqrt_ru, d, 0, __dsqrt_ru(da))         \
  X(double2float_rn, d, 0, __double2float_rn(da)) X(double2float_rz, d, 0, __double2float_rz(da))             \
  X(double2float_ru, d, 0, __double2float_ru(da)) X(double2float_rd, d, 0, __double2float_rd(da))             \
  X(double2int_rn, d, 0, __double2int_rn(da)) X(double2int_rz, d, 0, __double2int_rz(da))                     \
  X(double2int_ru, d, 0, __double2int_ru(da)) X(double2int_rd, d, 0, __double2int_rd(da))                     \
  X(double2uint_rn, d, 0, __double2uint_rn(da)) X(double2uint_rd, d, 0, __double2uint_rd(da))                 \
  X(double2ll_rn, d, 0, __double2ll_rn(da)) X(double2ll_rz, d, 0, __double2ll_rz(da))                         \
  X(double2ull_rn, d, 0, __double2ull_rn(da)) X(double2ull_ru, d, 0, __double2ull_ru(da))                     \
  X(double2half, d, 0, __double2half(da)) X(double2bfloat16, d, 0, __double2bfloat16(da))                     \
  X(double_plus, d, 1, da + db) X(double_times, d, 1, da * db) X(double_divided, d, 1, da / db)               \
  X(sqrt, d, 1, sqrt(da)) X(rint, d, 1, rint(da)) X(trunc, d, 1, trunc(da)) X(round, d, 1, round(da))         \
  X(floor, d, 1, floor(da)) X(ceil, d, 1, ceil(da)) X(fmin, d, 1, fmin(da, db)) X(fmax, d, 1, fmax(da, db))   \
  X(fmod, d, 1, fmod(da, db)) X(remainder, d, 1, remainder(da, db)) X(copysign, d, 1, copysign(da, db))       \
  X(fma, d, 1, fma(da, db, dc))

#define CUSIM_HALF_OPS(X)                                                                                     \
  X(hadd, h, 0, __hadd(ha, hb)) X(hsub, h, 0, __hsub(ha, hb)) X(hmul, h, 0, __hmul(ha, hb))                   \
  X(hdiv, h, 0, __hdiv(ha, hb)) X(hfma, h, 0, __hfma(ha, hb, hc)) X(hadd_sat, h, 0, __hadd_sat(ha, hb))       \
  X(hsub_sat, h, 0, __hsub_sat(ha, hb)) X(hmul_sat, h, 0, __hmul_sat(ha, hb))                                 \
  X(hfma_sat, h, 0, __hfma_sat(ha, hb, hc)) X(hfma_relu, h, 0, __hfma_relu(ha, hb, hc))                       \
  X(hneg, h, 0, __hneg(ha)) X(habs, h, 0, __habs(ha)) X(hmin, h, 0, __hmin(ha, hb))                           \
  X(hmax, h, 0, __hmax(ha, hb)) X(hmin_nan, h, 0, __hmin_nan(ha, hb)) X(hmax_nan, h, 0, __hmax_nan(ha, hb))   \
  X(heq, h, 0, __heq(ha, hb)) X(hne, h, 0, __hne(ha, hb)) X(hlt, h, 0, __hlt(ha, hb)) X(hge, h, 0, __hge(ha, hb)) \
  X(hequ, h, 0, __hequ(ha, hb)) X(hneu, h, 0, __hneu(ha, hb)) X(hltu, h, 0, __hltu(ha, hb))                   \
  X(hgtu, h, 0, __hgtu(ha, hb)) X(hisnan, h, 0, __hisnan(ha)) X(hisinf, h, 0, __hisinf(ha))                   \
  X(half2float, h, 0, __half2float(ha)) X(half2int_rn, h, 0, __half2int_rn(ha))                               \
  X(half2int_rz, h, 0, __half2int_rz(ha)) X(half2int_ru, h, 0, __half2int_ru(ha))                             \
  X(half2int_rd, h, 0, __half2int_rd(ha)) X(half2uint_rn, h, 0, __half2uint_rn(ha))                           \
  X(half2short_rn, h, 0, __half2short_rn(ha)) X(half2short_rz, h, 0, __half2short_rz(ha))                     \
  X(half2ushort_rd, h, 0, __half2ushort_rd(ha)) X(half2ll_rn, h, 0, __half2ll_rn(ha))                         \
  X(half2ull_rz, h, 0, __half2ull_rz(ha)) X(hsqrt, h, 0, hsqrt(ha)) X(hrcp, h, 0, hrcp(ha))                   \
  X(hrint, h, 0, hrint(ha)) X(htrunc, h, 0, htrunc(ha)) X(hfloor, h, 0, hfloor(ha)) X(hceil, h, 0, hceil(ha)) \
  X(hadd2, h, 0, __hadd2(__halves2half2(ha, hb), __halves2half2(hc, ha)))                                     \
  X(hmul2, h, 0, __hmul2(__halves2half2(ha, hb), __halves2half2(hc, ha)))                                     \
  X(hmax2, h, 0, __hmax2(__halves2half2(ha, hb), __halves2half2(hc, ha)))                                     \
  X(badd, b, 0, __hadd(ba, bb)) X(bsub, b, 0, __hsub(ba, bb)) X(bmul, b, 0, __hmul(ba, bb))                   \
  X(bdiv, b, 0, __hdiv(ba, bb)) X(bfma, b, 0, __hfma(ba, bb, bc)) X(bneg, b, 0, __hneg(ba))                   \
  X(babs, b, 0, __habs(ba)) X(bmin, b, 0, __hmin(ba, bb)) X(bmax, b, 0, __hmax(ba, bb))                       \
  X(bmin_nan, b, 0, __hmin_nan(ba, bb)) X(bmax_nan, b, 0, __hmax_nan(ba, bb)) X(beq, b, 0, __heq(ba, bb))     \
  X(blt, b, 0, __hlt(ba, bb)) X(bgeu, b, 0, __hgeu(ba, bb)) X(bisnan, b, 0, __hisnan(ba))                     \
  X(bfloat162float, b, 0, __bfloat162float(ba)) X(bfloat162int_rn, b, 0, __bfloat162int_rn(ba))               \
  X(bfloat162int_rz, b, 0, __bfloat162int_rz(ba)) X(bfloat162uint_ru, b, 0, __bfloat162uint_ru(ba))           \
  X(bfloat162ll_rd, b, 0, __bfloat162ll_rd(ba)) X(brint, b, 0, hrint(ba)) X(btrunc, b, 0, htrunc(ba))         \
  X(bfloor, b, 0, hfloor(ba)) X(bceil, b, 0, hceil(ba))

#define CUSIM_INTEGER_OPS(X)                                                                                  \
  X(int2float_rn, i, 0, __int2float_rn(ia)) X(int2float_rz, i, 0, __int2float_rz(ia))                         \
  X(int2float_ru, i, 0, __int2float_ru(ia)) X(int2float_rd, i, 0, __int2float_rd(ia))                         \
  X(uint2float_rn, i, 0, __uint2float_rn(ua)) X(uint2float_rz, i, 0, __uint2float_rz(ua))                     \
  X(uint2float_ru, i, 0, __uint2float_ru(ua)) X(uint2float_rd, i, 0, __uint2float_rd(ua))                     \
  X(int2double_rn, i, 0, __int2double_rn(ia)) X(uint2double_rn, i, 0, __uint2double_rn(ua))                   \
  X(int2half_rn, i, 0, __int2half_rn(ia)) X(int2half_rz, i, 0, __int2half_rz(ia))                             \
  X(int2half_ru, i, 0, __int2half_ru(ia)) X(int2half_rd, i, 0, __int2half_rd(ia))                             \
  X(uint2half_rn, i, 0, __uint2half_rn(ua)) X(short2half_rn, i, 0, __short2half_rn(short(ia)))                \
  X(int2bfloat16_rn, i, 0, __int2bfloat16_rn(ia)) X(int2bfloat16_rz, i, 0, __int2bfloat16_rz(ia))             \
  X(clz, i, 0, __clz(ia)) X(popc, i, 0, __popc(ua)) X(brev, i, 0, __brev(ua)) X(ffs, i, 0, __ffs(ia))         \
  X(byte_perm, i, 0, __byte_perm(ua, ub, uc)) X(funnelshift_l, i, 0, __funnelshift_l(ua, ub, uc))             \
  X(funnelshift_lc, i, 0, __funnelshift_lc(ua, ub, uc)) X(funnelshift_r, i, 0, __funnelshift_r(ua, ub, uc))   \
  X(funnelshift_rc, i, 0, __funnelshift_rc(ua, ub, uc)) X(mulhi, i, 0, __mulhi(ia, ib))                       \
  X(umulhi, i, 0, __umulhi(ua, ub)) X(mul24, i, 0, __mul24(ia, ib)) X(umul24, i, 0, __umul24(ua, ub))         \
  X(sad, i, 0, __sad(ia, ib, uc)) X(usad, i, 0, __usad(ua, ub, uc)) X(hadd_int, i, 0, __hadd(ia, ib))         \
  X(rhadd, i, 0, __rhadd(ia, ib)) X(uhadd, i, 0, __uhadd(ua, ub)) X(urhadd, i, 0, __urhadd(ua, ub))           \
  X(min_int, i, 0, min(ia, ib)) X(max_uint, i, 0, max(ua, ub)) X(vadd2, i, 0, __vadd2(ua, ub))                \
  X(vsub4, i, 0, __vsub4(ua, ub)) X(vabsdiffu4, i, 0, __vabsdiffu4(ua, ub)) X(vmaxs2, i, 0, __vmaxs2(ua, ub))  \
  X(vcmpgtu4, i, 0, __vcmpgtu4(ua, ub)) X(vsads2, i, 0, __vsads2(ua, ub)) X(vaddss4, i, 0, __vaddss4(ua, ub)) \
  X(dp4a, i, 0, __dp4a(ia, ib, ic)) X(dp2a_lo, i, 0, __dp2a_lo(ua, ub, uc)) X(ll2float_rn, l, 0, __ll2float_rn(la)) \
  X(ll2float_rz, l, 0, __ll2float_rz(la)) X(ull2float_ru, l, 0, __ull2float_ru(ula))                          \
  X(ull2float_rd, l, 0, __ull2float_rd(ula)) X(ll2double_rn, l, 0, __ll2double_rn(la))                        \
  X(ll2double_rz, l, 0, __ll2double_rz(la)) X(ull2double_ru, l, 0, __ull2double_ru(ula))                      \
  X(ull2double_rd, l, 0, __ull2double_rd(ula)) X(ll2half_rn, l, 0, __ll2half_rn(la))                          \
  X(ull2half_rz, l, 0, __ull2half_rz(ula)) X(clzll, l, 0, __clzll(la)) X(popcll, l, 0, __popcll(ula))         \
  X(brevll, l, 0, __brevll(ula)) X(ffsll, l, 0, __ffsll(la)) X(mul64hi, l, 0, __mul64hi(la, lb))              \
  X(umul64hi, l, 0, __umul64hi(ula, ulb))

#define CUSIM_ALL_OPS(X) CUSIM_FLOAT_OPS(X) CUSIM_DOUBLE_OPS(X) CUSIM_HALF_OPS(X) CUSIM_INTEGER_OPS(X)

enum op_id : unsigned {
#define CUSIM_ENUM(name, format, libm, expression) op_##name,
  CUSIM_ALL_OPS(CUSIM_ENUM)
#undef CUSIM_ENUM
  op_count
};
struct op_info {
  const char* name;
  operand_format format;
};
const op_info ops[] = {
#define CUSIM_INFO(name, format, libm, expression) {#name, format},
    CUSIM_ALL_OPS(CUSIM_INFO)
#undef CUSIM_INFO
};

struct arithmetic_case {
  unsigned op;
  unsigned long long a, b, c;
};

// A NaN from the host's library or a C++ operator (above): printed as "nan".
constexpr unsigned long long nan_marker = 0xfffffffffffffffeull;

template <class T>
__device__ unsigned long long result_bits(T value, bool libm) {
  if (libm) {
    if constexpr (sizeof(T) == 4 && std::is_floating_point_v<T>) {
      if (isnan(value)) return nan_marker;
    } else if constexpr (sizeof(T) == 8 && std::is_floating_point_v<T>) {
      if (isnan(value)) return nan_marker;
    }
  }
  return bits_of(value);
}
// frexpf's and modff's two results in one word: the float result's bits
// high, the other (exponent, or the integral part's bits) low.
__device__ unsigned long long frexp_bits(float x) {
  int exponent;
  const float mantissa = frexpf(x, &exponent);
  return isnan(mantissa) ? nan_marker : (unsigned long long)__float_as_uint(mantissa) << 32 | unsigned(exponent);
}
__device__ unsigned long long modf_bits(float x) {
  float integral;
  const float fraction = modff(x, &integral);
  if (isnan(fraction) || isnan(integral)) return nan_marker;
  return (unsigned long long)__float_as_uint(fraction) << 32 | __float_as_uint(integral);
}

__global__ void run_cases(const arithmetic_case* cases, unsigned count, unsigned long long* results) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const arithmetic_case& c = cases[k];
  const float fa = from_bits<float>(c.a), fb = from_bits<float>(c.b), fc = from_bits<float>(c.c);
  const double da = from_bits<double>(c.a), db = from_bits<double>(c.b), dc = from_bits<double>(c.c);
  const __half ha = from_bits<__half>(c.a), hb = from_bits<__half>(c.b), hc = from_bits<__half>(c.c);
  const __nv_bfloat16 ba = from_bits<__nv_bfloat16>(c.a), bb = from_bits<__nv_bfloat16>(c.b),
                      bc = from_bits<__nv_bfloat16>(c.c);
  const int ia = int(c.a), ib = int(c.b), ic = int(c.c);
  const unsigned ua = unsigned(c.a), ub = unsigned(c.b), uc = unsigned(c.c);
  const long long la = (long long)c.a, lb = (long long)c.b;
  const unsigned long long ula = c.a, ulb = c.b;
  unsigned long long r = 0;
  switch (c.op) {
#define CUSIM_CASE(name, format, libm, expression) \
  case op_##name: r = result_bits(expression, libm); break;
    CUSIM_ALL_OPS(CUSIM_CASE)
#undef CUSIM_CASE
  }
  results[k] = r;
  (void)fb, (void)fc, (void)db, (void)dc, (void)hb, (void)hc, (void)bb, (void)bc, (void)ib, (void)ic, (void)ub, (void)uc;
  (void)lb, (void)ulb;
}

static unsigned long long operand(generated::random_source& r, operand_format format) {
  switch (format) {
    case f: return generated::edge_bits(r, generated::binary32);
    case d: return generated::edge_bits(r, generated::binary64);
    case h: return generated::edge_bits(r, generated::binary16);
    case b: return generated::edge_bits(r, generated::bfloat16);
    case i: return generated::edge_integer(r, 32);
    default: return generated::edge_integer(r, 64);
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  std::vector<arithmetic_case> cases(count);
  for (arithmetic_case& c : cases) {
    c.op = r.below(op_count);
    const operand_format format = ops[c.op].format;
    c.a = operand(r, format);
    // The second operand is often the first's neighbour or the first
    // itself: ties, cancellation and equal comparisons.
    c.b = r.chance(15) ? c.a + r.below(3) - 1 : operand(r, format);
    c.c = operand(r, format);
    // fmin/fmax of a signalling NaN: the host's C library gives a NaN, a
    // GPU the other operand (docs/behaviour.md); a quiet NaN is the same on both.
    if (std::strncmp(ops[c.op].name, "fmin", 4) == 0 || std::strncmp(ops[c.op].name, "fmax", 4) == 0) {
      const generated::float_format& layout = format == f ? generated::binary32 : generated::binary64;
      for (unsigned long long* x : {&c.a, &c.b}) {
        const bool nan = (*x & layout.exponent_mask()) == layout.exponent_mask() && (*x & layout.mantissa_mask()) != 0;
        if (nan) *x |= 1ull << (layout.mantissa_bits - 1);
      }
    }
  }
  arithmetic_case* device_cases;
  unsigned long long* device_results;
  cudaMalloc(&device_cases, count * sizeof(arithmetic_case));
  cudaMalloc(&device_results, count * sizeof(unsigned long long));
  cudaMemcpy(device_cases, cases.data(), count * sizeof(arithmetic_case), cudaMemcpyHostToDevice);
  run_cases<<<(count + 127) / 128, 128>>>(device_cases, count, device_results);
  std::vector<unsigned long long> results(count);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(results.data(), device_results, count * 8, cudaMemcpyDeviceToHost);
  std::printf("arithmetic, seed %s, %u cases: launch %s, copy %s\n", argv[1], count, cudaGetErrorName(launched),
              cudaGetErrorName(copied));
  for (unsigned k = 0; k < count; ++k) {
    const arithmetic_case& c = cases[k];
    std::printf("%s %llx %llx %llx -> ", ops[c.op].name, c.a, c.b, c.c);
    if (results[k] == nan_marker) std::printf("nan\n");
    else std::printf("%llx\n", results[k]);
  }
  return 0;
}
