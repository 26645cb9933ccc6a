// The paired comparisons, saturating/relu/rounding arithmetic, math and
// operators of __half2 and __nv_bfloat162, and the integer conversions in
// each rounding, against the values the CUDA Math API documents. Inputs
// are exact in both types: x = (0.75, -2), y = (0.75, NaN), z = (0.5, 3).
#include <cmath>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

constexpr int pair_results = 36, mask_results = 11;
const float nan_ = NAN;
// Each pair result as (low, high), in the kernel's order.
const float expected_pairs[pair_results][2] = {
    {1, 0}, {1, 1}, {0, 1}, {0, 1}, {1, 1}, {0, 1}, {1, 0}, {1, 1},          // __heq2 ... __hleu2
    {0, 1}, {0.75f, nan_}, {0.5f, -2},                                      // __hisnan2, __hmax2_nan, __hmin2_nan
    {1, 1}, {0.25f, 0}, {0.375f, 0}, {0.875f, 0}, {0.875f, 0},              // _sat, _relu
    {1.25f, 1}, {0.25f, -5}, {0.375f, -6}, {6.875f, 4.25f},                 // _rn, __hcmadd
    {2, -2}, {3, -1}, {2, -1}, {2, -2},                                     // h2floor h2ceil h2trunc h2rint of (2.5, -1.5)
    {8, 0.5f}, {3, -1}, {0.25f, 4}, {0.5f, 2}, {100, 1}, {2, 0},            // exp2, log2, rcp, rsqrt, exp10, log10
    {0, 0}, {1, 1}, {0, 0}, {0, 0}, {-0.75f, 2}, {0.75f, -2}};              // sin cos log tanh of 0, unary - and +
const unsigned expected_masks[mask_results] = {0x0000ffffu, 0xffffffffu, 0x0000ffffu, 0xffff0000u, 0, 1, 1, 0,
                                               1, 1, 0};

template <class T2>
__global__ void pairs(const T2* in, float* out, unsigned* masks) {
  const T2 x = in[0], y = in[1], z = in[2], w = in[3], e = in[4], f = in[5], g = in[6];
  const T2 zero = __hsub2(g, g);
  const T2 results[pair_results] = {
      __heq2(x, y), __hequ2(x, y), __hlt2(x, z), __hltu2(x, y), __hne2(x, z), __hneu2(x, y), __hge2(x, z),
      __hleu2(x, y), __hisnan2(y), __hmax2_nan(x, y), __hmin2_nan(x, z),
      __hadd2_sat(x, z), __hsub2_sat(x, z), __hmul2_sat(x, z), __hfma2_sat(x, z, z), __hfma2_relu(x, z, z),
      __hadd2_rn(x, z), __hsub2_rn(x, z), __hmul2_rn(x, z), __hcmadd(x, z, z),
      h2floor(w), h2ceil(w), h2trunc(w), h2rint(w),
      h2exp2(e), h2log2(h2exp2(e)), h2rcp(f), h2rsqrt(f), h2exp10(g), h2log10(h2exp10(g)),
      h2sin(zero), h2cos(zero), h2log(h2cos(zero)), __hadd2(h2tanh(zero), h2tanh_approx(zero)), -x, +x};
  for (int i = 0; i < pair_results; ++i) {
    out[2 * i] = __low2float(results[i]);
    out[2 * i + 1] = __high2float(results[i]);
  }
  const unsigned m[mask_results] = {__heq2_mask(x, y), __hequ2_mask(x, y), __hgt2_mask(x, z), __hltu2_mask(x, y),
                                    __hbeq2(x, y), __hbequ2(x, y), __hbge2(z, z), __hbltu2(x, y),
                                    x == x, x != z, x < z};
  for (int i = 0; i < mask_results; ++i) masks[i] = m[i];
}

// Integer conversions, as doubles: from integers in each rounding, then to them.
constexpr int conversions = 29;
const double expected_conversions[conversions] = {
    -2050, -2048, 2050, 2048, 2050, -2048, 2050, INFINITY, 65504, 2050,
    -258, -256, 258, 256, 256, 1108101562368.0, 258, 258, 258,
    -3, 127, 0, -128, 3, -3, 2, 3, 0, 3};
__global__ void convert(double* out) {
  const double results[conversions] = {
      __int2half_rd(-2049), __int2half_rz(-2049), __int2half_ru(2049), __uint2half_rd(2049u),
      __ushort2half_ru((unsigned short)2049), __short2half_rz((short)-2049), __ll2half_ru(2049ll),
      __ull2half_rn(70000ull), __ull2half_rz(70000ull), __ull2half_rd(2051ull),
      __int2bfloat16_rd(-257), __int2bfloat16_rz(-257), __uint2bfloat16_ru(257u), __short2bfloat16_rd((short)257),
      __ushort2bfloat16_rz((unsigned short)257), __ll2bfloat16_ru((1ll << 40) + 1), __ull2bfloat16_rd(259ull),
      __ull2bfloat16_rz(259ull), __ull2bfloat16_ru(257ull),
      (double)__half2char_rz(__float2half(-3.75f)), (double)__half2char_rz(__float2half(300.f)),
      (double)__half2uchar_rz(__float2half(-1.f)), (double)__bfloat162char_rz(__float2bfloat16(-200.f)),
      (double)__bfloat162uchar_rz(__float2bfloat16(3.9f)), (double)__bfloat162short_rd(__float2bfloat16(-2.5f)),
      (double)__bfloat162short_rn(__float2bfloat16(2.5f)), (double)__bfloat162ushort_ru(__float2bfloat16(2.5f)),
      (double)__bfloat162ushort_rz(__float2bfloat16(-5.f)), (double)__bfloat162short_ru(__float2bfloat16(2.25f))};
  for (int i = 0; i < conversions; ++i) out[i] = results[i];
}

bool same(double got, double want) { return std::isnan(want) ? std::isnan(got) : got == want; }

template <class T2, class Make>
int check_pairs(const char* type, Make make) {
  T2* in;
  float* out;
  unsigned* masks;
  cudaMallocManaged(&in, 7 * sizeof(T2));
  cudaMallocManaged(&out, 2 * pair_results * sizeof(float));
  cudaMallocManaged(&masks, mask_results * sizeof(unsigned));
  const float inputs[7][2] = {{0.75f, -2}, {0.75f, NAN}, {0.5f, 3}, {2.5f, -1.5f}, {3, -1}, {4, 0.25f}, {2, 0}};
  for (int i = 0; i < 7; ++i) in[i] = make(inputs[i][0], inputs[i][1]);
  pairs<<<1, 1>>>(in, out, masks);
  cudaDeviceSynchronize();
  int failures = 0;
  for (int i = 0; i < pair_results; ++i) {
    for (int lane = 0; lane < 2; ++lane) {
      if (!same(out[2 * i + lane], expected_pairs[i][lane])) {
        std::printf("%s pair result %d lane %d: %g, expected %g\n", type, i, lane, out[2 * i + lane], expected_pairs[i][lane]);
        ++failures;
      }
    }
  }
  for (int i = 0; i < mask_results; ++i) {
    if (masks[i] != expected_masks[i]) {
      std::printf("%s mask result %d: %#x, expected %#x\n", type, i, masks[i], expected_masks[i]);
      ++failures;
    }
  }
  std::printf("%s: hcmadd (%g, %g), mask %#x, %d failures\n", type, out[38], out[39], masks[0], failures);
  cudaFree(in);
  cudaFree(out);
  cudaFree(masks);
  return failures;
}

int main() {
  int failures = check_pairs<__half2>("__half2", [](float a, float b) { return __floats2half2_rn(a, b); });
  failures += check_pairs<__nv_bfloat162>("__nv_bfloat162", [](float a, float b) { return __floats2bfloat162_rn(a, b); });
  double* out;
  cudaMallocManaged(&out, conversions * sizeof(double));
  convert<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  for (int i = 0; i < conversions; ++i) {
    if (!same(out[i], expected_conversions[i])) {
      std::printf("conversion %d: %.17g, expected %.17g\n", i, out[i], expected_conversions[i]);
      ++failures;
    }
  }
  std::printf("__ll2bfloat16_ru(2^40 + 1) = %.17g\n", out[15]);
  std::printf("half pairs: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
