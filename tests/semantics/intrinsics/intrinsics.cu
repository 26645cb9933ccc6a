// Device intrinsics with exact results, checked against their definitions in
// the CUDA math API documentation (computed on the host without them): bit
// and integer intrinsics, reinterpretations, rounding-mode arithmetic and
// conversions (saturating, NaN to 0), and the fast-math functions within
// their documented error.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

const int slots = 64;

__global__ void integers(unsigned long long* out, unsigned x, unsigned y) {
  int i = 0;
  out[i++] = __popc(x);
  out[i++] = __popcll(0xf0f0f0f0f0f0f0f0ull);
  out[i++] = __clz(int(x >> 7));
  out[i++] = __clzll(1ll);
  out[i++] = __ffs(int(x & 0xfff0));
  out[i++] = __ffsll(1ll << 40);
  out[i++] = __brev(x);
  out[i++] = __brevll(0x1ull);
  out[i++] = __byte_perm(x, y, 0x7531);
  out[i++] = __byte_perm(x, y, 0x0123);
  out[i++] = __funnelshift_l(x, y, 12);
  out[i++] = __funnelshift_lc(x, y, 40);
  out[i++] = __funnelshift_r(x, y, 36);  // shift taken modulo 32
  out[i++] = __funnelshift_rc(x, y, 40);
  out[i++] = unsigned(__mul24(-3, 0x7fffff));
  out[i++] = __umul24(0x1000001u, 5u);
  out[i++] = unsigned(__mulhi(-2000000000, 2000000000));
  out[i++] = __umulhi(x, y);
  out[i++] = (unsigned long long)__mul64hi(-(1ll << 62), 6ll);
  out[i++] = __umul64hi(~0ull, 3ull);
  out[i++] = __sad(-5, 7, 100u);
  out[i++] = __usad(3u, 10u, 1u);
  out[i++] = unsigned(__hadd(-7, 2));
  out[i++] = unsigned(__rhadd(-7, 2));
  out[i++] = __uhadd(0xffffffffu, 1u);
  out[i++] = __urhadd(0xffffffffu, 2u);
  out[i++] = unsigned(__float_as_int(-2.0f));
  out[i++] = __float_as_uint(1.0f);
  out[i++] = (unsigned long long)__double_as_longlong(1.5);
  out[i++] = unsigned(__double2hiint(-0.0));
  out[i++] = __int_as_float(0x40490fdb) == 3.14159274f;
  out[i++] = __hiloint2double(0x3ff00000, 0) == 1.0;
}

__global__ void rounding(double* out) {
  int i = 0;
  const float tiny = 1.0f / (1 << 30);
  out[i++] = __fadd_rn(1.0f, tiny);
  out[i++] = __fadd_rz(1.0f, tiny);
  out[i++] = __fadd_ru(1.0f, tiny);
  out[i++] = __fadd_rd(-1.0f, -tiny);
  out[i++] = __fmul_ru(1.0f + 1.0f / (1 << 23), 1.0f + 1.0f / (1 << 23));
  out[i++] = __fmul_rd(1.0f + 1.0f / (1 << 23), 1.0f + 1.0f / (1 << 23));
  out[i++] = __fdiv_rz(1.0f, 3.0f);
  out[i++] = __fdiv_ru(1.0f, 3.0f);
  out[i++] = __fsqrt_rd(2.0f);
  out[i++] = __fsqrt_ru(2.0f);
  out[i++] = __fmaf_ru(1.0f + 1.0f / (1 << 23), 1.0f + 1.0f / (1 << 23), -1.0f);
  out[i++] = __dadd_ru(1.0, 1e-30);
  out[i++] = __ddiv_rd(1.0, 3.0);
  out[i++] = __float2int_rn(2.5f);
  out[i++] = __float2int_rn(3.5f);
  out[i++] = __float2int_rz(-1.7f);
  out[i++] = __float2int_ru(-1.5f);
  out[i++] = __float2int_rd(-1.5f);
  out[i++] = __float2int_rn(3e9f);
  out[i++] = __float2int_rn(-3e9f);
  out[i++] = __float2int_rn(nanf(""));
  out[i++] = __float2uint_rn(-5.0f);
  out[i++] = double(__float2ll_rd(-2.5f));
  out[i++] = double(__double2int_ru(2.000001));
  out[i++] = __int2float_rz(16777217);
  out[i++] = __int2float_ru(16777217);
  out[i++] = __double2float_rd(0.1);
  out[i++] = __double2float_ru(0.1);
  out[i++] = __saturatef(1.5f);
  out[i++] = __saturatef(-0.5f);
  out[i++] = min(3, 4u);
  out[i++] = max(-1.0f, 2.0);
}

__global__ void fast_math(float* out, float x) {
  int i = 0;
  out[i++] = __expf(x);
  out[i++] = __logf(x);
  out[i++] = __sinf(x);
  out[i++] = __cosf(x);
  out[i++] = __powf(x, 1.5f);
  out[i++] = __fdividef(x, 3.0f);
  out[i++] = rsqrtf(x);
  out[i++] = __log2f(x);
  out[i++] = __exp10f(x);
  out[i++] = sinpif(0.25f);
  out[i++] = normcdff(0.0f);
  out[i++] = rcbrtf(8.0f);
  out[i++] = erfinvf(0.5f);
}

int failures = 0;
void check_bits(int index, unsigned long long got, unsigned long long want) {
  if (got != want && ++failures <= 20) std::printf("  integer %d: got %#llx, expected %#llx\n", index, got, want);
}
void check_exact(int index, double got, double want) {
  if (!(got == want) && ++failures <= 20) std::printf("  rounding %d: got %.17g, expected %.17g\n", index, got, want);
}
void check_close(int index, double got, double want, double tolerance) {
  if (!(std::fabs(got - want) <= tolerance * std::fabs(want)) && ++failures <= 20) {
    std::printf("  fast math %d: got %.9g, expected %.9g\n", index, got, want);
  }
}

unsigned host_brev(unsigned x) {
  unsigned r = 0;
  for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
  return r;
}
unsigned host_byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned char bytes[8] = {(unsigned char)x, (unsigned char)(x >> 8), (unsigned char)(x >> 16),
                                  (unsigned char)(x >> 24), (unsigned char)y, (unsigned char)(y >> 8),
                                  (unsigned char)(y >> 16), (unsigned char)(y >> 24)};
  unsigned r = 0;
  for (int n = 0; n < 4; ++n) r |= unsigned(bytes[(s >> (4 * n)) & 7]) << (8 * n);
  return r;
}
unsigned bits_of(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

int main() {
  const unsigned x = 0x12345678u, y = 0x9abcdef0u;
  unsigned long long* ints;
  double* rounded;
  float* fast;
  cudaMallocManaged(&ints, sizeof(unsigned long long) * slots);
  cudaMallocManaged(&rounded, sizeof(double) * slots);
  cudaMallocManaged(&fast, sizeof(float) * slots);
  integers<<<1, 1>>>(ints, x, y);
  rounding<<<1, 1>>>(rounded);
  fast_math<<<1, 1>>>(fast, 1.7f);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("intrinsics: launch failed\n");
    return 1;
  }
  const unsigned long long yx = (unsigned long long)y << 32 | x;
  const unsigned long long want_int[] = {
      13, 32, 10, 63, 5, 41, host_brev(x), 1ull << 63, host_byte_perm(x, y, 0x7531), host_byte_perm(x, y, 0x0123),
      unsigned((yx << 12) >> 32), x, unsigned(yx >> 4), y,
      unsigned(-3 * 0x7fffff), 5u, unsigned(int((-2000000000ll * 2000000000ll) >> 32)),
      unsigned(((unsigned long long)x * y) >> 32), (unsigned long long)-2ll, 2ull, 112u, 8u, unsigned(-3), unsigned(-2),
      0x80000000u, 0x80000001u, 0xc0000000u, 0x3f800000u, 0x3ff8000000000000ull, 0x80000000u, 1u, 1u};
  for (int i = 0; i < int(sizeof want_int / sizeof want_int[0]); ++i) check_bits(i, ints[i], want_int[i]);

  const float one_up = float_of(0x3f800001u);  // the float after 1
  const double want_rounding[] = {1.0, 1.0, one_up, -double(one_up), float_of(0x3f800003u), float_of(0x3f800002u),
                                  float_of(0x3eaaaaaau), float_of(0x3eaaaaabu), float_of(0x3fb504f3u),
                                  float_of(0x3fb504f4u), std::ldexp(1.0, -22) + std::ldexp(1.0, -45),
                                  std::nextafter(1.0, 2.0), 0.33333333333333331, 2, 4, -1, -1, -2, INT_MAX, INT_MIN,
                                  0, 0, -3, 3, 16777216.0f, 16777218.0f, float_of(0x3dcccccc), float_of(0x3dcccccd),
                                  1.0f, 0.0f, 3, 2.0};
  // Entry 10: (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 exactly, rounded up to a float: 2^-22 + 2^-45.
  for (int i = 0; i < int(sizeof want_rounding / sizeof want_rounding[0]); ++i) {
    check_exact(i, rounded[i], want_rounding[i]);
  }

  const double v = 1.7;
  const double want_fast[] = {std::exp(v), std::log(v), std::sin(v), std::cos(v), std::pow(v, 1.5), v / 3,
                              1 / std::sqrt(v), std::log2(v), std::pow(10.0, v), std::sqrt(0.5), 0.5, 0.5,
                              0.47693627620446987};
  // The documented maximum errors of the fast intrinsics are a few ulp or 2^-21 absolute: 1e-5 relative covers them.
  for (int i = 0; i < int(sizeof want_fast / sizeof want_fast[0]); ++i) check_close(i, fast[i], want_fast[i], 1e-5);
  std::printf("intrinsics: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
