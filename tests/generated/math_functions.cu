// Generated differential cases: CUDA's math functions (float and double),
// whose results a GPU gives within a documented error in ulps.
//   math_functions SEED CASES
// Each case is one function on operands from edge classes (zeros,
// denormals, infinities, NaN, extremes, halfway cases, ordinary values);
// the result prints in scientific notation (a NaN as "nan", whatever its
// bits: the host's C library keeps a NaN operand's payload), and the test
// compares it within a relative tolerance a little above the largest
// documented error (tests/differential.txt), or an absolute one for results
// near zero. Special values (±0, ±inf, NaN) must match exactly. The golden
// comes from an H100; random_cases.hpp draws the cases from SEED.
#include <cmath>
#include <cstdio>
#include <vector>

#include "bits.hpp"
#include "random_cases.hpp"

// X(name, format f or d, expression of a and b)
#define CUSIM_MATH_FUNCTIONS(X)                                                                                 \
  X(sinf, f, sinf(fa)) X(cosf, f, cosf(fa)) X(tanf, f, tanf(fa)) X(sinpif, f, sinpif(fa))                       \
  X(cospif, f, cospif(fa)) X(expf, f, expf(fa)) X(exp2f, f, exp2f(fa)) X(exp10f, f, exp10f(fa))                 \
  X(expm1f, f, expm1f(fa)) X(logf, f, logf(fa)) X(log2f, f, log2f(fa)) X(log10f, f, log10f(fa))                 \
  X(log1pf, f, log1pf(fa)) X(powf, f, powf(fa, fb)) X(cbrtf, f, cbrtf(fa)) X(rcbrtf, f, rcbrtf(fa))             \
  X(rsqrtf, f, rsqrtf(fa)) X(hypotf, f, hypotf(fa, fb)) X(atanf, f, atanf(fa)) X(asinf, f, asinf(fa))           \
  X(acosf, f, acosf(fa)) X(atan2f, f, atan2f(fa, fb)) X(sinhf, f, sinhf(fa)) X(coshf, f, coshf(fa))             \
  X(tanhf, f, tanhf(fa)) X(asinhf, f, asinhf(fa)) X(acoshf, f, acoshf(fa)) X(atanhf, f, atanhf(fa))             \
  X(erff, f, erff(fa)) X(erfcf, f, erfcf(fa)) X(erfinvf, f, erfinvf(fa)) X(erfcinvf, f, erfcinvf(fa))           \
  X(normcdff, f, normcdff(fa)) X(normcdfinvf, f, normcdfinvf(fa)) X(tgammaf, f, tgammaf(fa))                    \
  X(expf_of_small, f, expf(fa * 0x1p-100f)) X(powf_integer, f, powf(fa, float(int(c.b % 9) - 4)))                   \
  X(norm3df, f, norm3df(fa, fb, fa)) X(rhypotf, f, rhypotf(fa, fb)) X(norm4df, f, norm4df(fa, fb, fb, fa))  \
  X(rnorm3df, f, rnorm3df(fb, fa, fa)) X(norm4d, d, norm4d(da, db, da, db)) X(rnorm3d, d, rnorm3d(da, db, db)) X(sin, d, sin(da)) X(cos, d, cos(da))       \
  X(tan, d, tan(da)) X(exp, d, exp(da)) X(exp2, d, exp2(da)) X(exp10, d, exp10(da)) X(expm1, d, expm1(da))      \
  X(log, d, log(da)) X(log2, d, log2(da)) X(log10, d, log10(da)) X(log1p, d, log1p(da)) X(pow, d, pow(da, db))  \
  X(cbrt, d, cbrt(da)) X(rcbrt, d, rcbrt(da)) X(rsqrt, d, rsqrt(da)) X(hypot, d, hypot(da, db))                 \
  X(atan, d, atan(da)) X(asin, d, asin(da)) X(acos, d, acos(da)) X(atan2, d, atan2(da, db)) X(sinh, d, sinh(da)) \
  X(cosh, d, cosh(da)) X(tanh, d, tanh(da)) X(asinh, d, asinh(da)) X(acosh, d, acosh(da)) X(atanh, d, atanh(da)) \
  X(erf, d, erf(da)) X(erfc, d, erfc(da)) X(erfinv, d, erfinv(da)) X(erfcinv, d, erfcinv(da))                   \
  X(normcdf, d, normcdf(da)) X(normcdfinv, d, normcdfinv(da)) X(sinpi, d, sinpi(da)) X(cospi, d, cospi(da))     \
  X(tgamma, d, tgamma(da)) X(erfcxf, f, erfcxf(fa)) X(erfcx, d, erfcx(da)) X(cyl_bessel_i0f, f, cyl_bessel_i0f(fa))   \
  X(cyl_bessel_i1f, f, cyl_bessel_i1f(fa)) X(cyl_bessel_i0, d, cyl_bessel_i0(da)) X(cyl_bessel_i1, d, cyl_bessel_i1(da))

enum function_id : unsigned {
#define CUSIM_ENUM(name, format, expression) fn_##name,
  CUSIM_MATH_FUNCTIONS(CUSIM_ENUM)
#undef CUSIM_ENUM
  function_count
};
struct function_info {
  const char* name;
  bool is_double;
};
const function_info functions[] = {
#define CUSIM_INFO(name, format, expression) {#name, #format[0] == 'd'},
    CUSIM_MATH_FUNCTIONS(CUSIM_INFO)
#undef CUSIM_INFO
};

struct math_case {
  unsigned function;
  unsigned long long a, b;
};

__global__ void run_cases(const math_case* cases, unsigned count, double* results) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const math_case& c = cases[k];
  const float fa = from_bits<float>(c.a), fb = from_bits<float>(c.b);
  const double da = from_bits<double>(c.a), db = from_bits<double>(c.b);
  double r = 0;
  switch (c.function) {
#define CUSIM_CASE(name, format, expression) \
  case fn_##name: r = expression; break;
    CUSIM_MATH_FUNCTIONS(CUSIM_CASE)
#undef CUSIM_CASE
  }
  results[k] = r;
  (void)fa, (void)fb, (void)da, (void)db;
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  std::vector<math_case> cases(count);
  for (math_case& c : cases) {
    c.function = r.below(function_count);
    const generated::float_format& format = functions[c.function].is_double ? generated::binary64 : generated::binary32;
    c.a = generated::edge_bits(r, format);
    c.b = generated::edge_bits(r, format);
    // The H100's hypot of ±DBL_MAX and anything is inf (docs/behaviour.md).
    if (c.function == fn_hypot) {
      for (unsigned long long* x : {&c.a, &c.b})
        if ((*x & ~generated::binary64.sign()) == 0x7fefffffffffffffull) *x -= 1;
    }
    // A signalling NaN is quieted: the host's C library treats one as C
    // says (pow(sNaN, 0) is NaN), a GPU as a quiet NaN (docs/behaviour.md).
    for (unsigned long long* x : {&c.a, &c.b}) {
      const bool nan = (*x & format.exponent_mask()) == format.exponent_mask() && (*x & format.mantissa_mask()) != 0;
      if (nan) *x |= 1ull << (format.mantissa_bits - 1);
    }
  }
  math_case* device_cases;
  double* device_results;
  cudaMalloc(&device_cases, count * sizeof(math_case));
  cudaMalloc(&device_results, count * sizeof(double));
  cudaMemcpy(device_cases, cases.data(), count * sizeof(math_case), cudaMemcpyHostToDevice);
  run_cases<<<(count + 127) / 128, 128>>>(device_cases, count, device_results);
  std::vector<double> results(count);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(results.data(), device_results, count * sizeof(double), cudaMemcpyDeviceToHost);
  std::printf("math functions, seed %llu, %u cases: launch %s, copy %s\n", static_cast<unsigned long long>(seed), count,
              cudaGetErrorName(launched), cudaGetErrorName(copied));
  for (unsigned k = 0; k < count; ++k) {
    const math_case& c = cases[k];
    std::printf("%s %llx %llx -> ", functions[c.function].name, c.a, c.b);
    if (std::isnan(results[k])) std::printf("nan\n");
    else if (functions[c.function].is_double) std::printf("%.16e\n", results[k]);
    else std::printf("%.8e\n", results[k]);
  }
  return 0;
}
