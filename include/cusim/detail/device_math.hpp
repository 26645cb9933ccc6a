// The math CUDA device code calls that the C++ library lacks: min/max
// overloads in the global namespace, the fast-math intrinsics (computed at
// full precision here, which CUDA's ULP bounds allow) and conversions.
#pragma once
#include <cmath>
#include <cstdlib>

#include <cusim/detail/device_intrinsics.hpp>

// min and max for the types CUDA's math API overloads them on; a pair of
// integers of one width but mixed signedness gives the unsigned type, as
// the usual arithmetic conversions do.
#define CUSIM_MIN_MAX_(R, A, B)                                                                  \
  inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
  inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); }
#define CUSIM_MIN_MAX_INTEGERS_(S, U) \
  CUSIM_MIN_MAX_(S, S, S)             \
  CUSIM_MIN_MAX_(U, U, U)             \
  CUSIM_MIN_MAX_(U, S, U)             \
  CUSIM_MIN_MAX_(U, U, S)
CUSIM_MIN_MAX_INTEGERS_(int, unsigned int)
CUSIM_MIN_MAX_INTEGERS_(long, unsigned long)
CUSIM_MIN_MAX_INTEGERS_(long long, unsigned long long)
#undef CUSIM_MIN_MAX_INTEGERS_
#undef CUSIM_MIN_MAX_
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
// Clamped to [+0, 1]: -0 and NaN become +0, as a GPU's .sat does.
inline float __saturatef(float x) { return x > 0.0f ? (x > 1.0f ? 1.0f : x) : 0.0f; }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}

// Mixed float and double: in double.
inline double min(float a, double b) { return std::fmin(double(a), b); }
inline double min(double a, float b) { return std::fmin(a, double(b)); }
inline double max(float a, double b) { return std::fmax(double(a), b); }
inline double max(double a, float b) { return std::fmax(a, double(b)); }
inline unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
inline unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// CUDA's math functions that C++'s library lacks.
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
namespace cusim::detail {
// sin(pi x) and cos(pi x) with x reduced exactly (fmod by 2 is exact), so
// that integers and halves give exact zeros and ones at any magnitude (a
// product pi * x rounds, and beyond 2^53 every double is an even integer).
// The signs of zero are IEEE 754's: sinpi(n) is +0 for n > 0 and -0 for
// n < 0, cospi(n + 1/2) is +0.
constexpr double pi = 3.14159265358979323846;
inline double sin_pi(double x) {
  if (!std::isfinite(x)) return x - x;  // NaN
  double r = std::fmod(x, 2.0);          // (-2, 2), exact
  if (r == std::trunc(r)) return std::copysign(0.0, x);
  if (r > 1) r -= 2;                     // [-1, 1], exact
  if (r < -1) r += 2;
  if (r > 0.5) r = 1 - r;                // sin(pi (1 - r)) = sin(pi r); exact
  if (r < -0.5) r = -1 - r;
  return std::fabs(r) <= 0.25 ? std::sin(pi * r) : std::copysign(std::cos(pi * (0.5 - std::fabs(r))), r);
}
inline double cos_pi(double x) {
  if (!std::isfinite(x)) return x - x;
  double r = std::fabs(std::fmod(x, 2.0));  // [0, 2), exact
  if (r > 1) r = 2 - r;                      // [0, 1], exact
  if (r == 0.5) return 0.0;
  if (r <= 0.25) return std::cos(pi * r);
  if (r < 0.75) return std::sin(pi * (0.5 - r));
  return -std::cos(pi * (1 - r));
}
// The square root of the sum of squares of n values, scaled by the largest
// so that nothing overflows or underflows in between. An infinity gives
// +inf even beside a NaN (as hypot), else a NaN gives NaN.
template <class T>
double euclidean_norm(int n, const T* values) {
  double largest = 0;
  bool nan = false;
  for (int i = 0; i < n; ++i) {
    const double magnitude = std::fabs(double(values[i]));
    if (std::isinf(magnitude)) return HUGE_VAL;
    if (std::isnan(magnitude)) nan = true;
    else if (magnitude > largest) largest = magnitude;
  }
  if (nan) return NAN;
  if (largest == 0) return 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double scaled = double(values[i]) / largest;
    sum += scaled * scaled;
  }
  return largest * std::sqrt(sum);
}
// normcdf(x) = erfc(-x / sqrt 2) / 2, with the rounding error of the
// argument's product corrected (erfc's slope, -2/sqrt(pi) exp(-t^2), turns
// it into a relative error 2t^2 times as large in the tails).
inline double normal_cdf(double x) {
  const double t = -x * 0.70710678118654752440;
  if (!std::isfinite(t)) return 0.5 * std::erfc(t);
  const double error = std::fma(-x, 0.70710678118654752440, -t);
  return 0.5 * (std::erfc(t) - error * 1.1283791670955126 * std::exp(-t * t));
}
}  // namespace cusim::detail

inline double sinpi(double x) { return cusim::detail::sin_pi(x); }
inline float sinpif(float x) { return static_cast<float>(cusim::detail::sin_pi(x)); }
inline double cospi(double x) { return cusim::detail::cos_pi(x); }
inline float cospif(float x) { return static_cast<float>(cusim::detail::cos_pi(x)); }
inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}
inline void sincospi(double x, double* s, double* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
inline float normcdff(float x) { return static_cast<float>(cusim::detail::normal_cdf(x)); }
inline double normcdf(double x) { return cusim::detail::normal_cdf(x); }
inline float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline double norm3d(double a, double b, double c) {
  const double v[] = {a, b, c};
  return cusim::detail::euclidean_norm(3, v);
}
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(1.0 / norm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return cusim::detail::euclidean_norm(4, v);
}
inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(1.0 / norm4d(a, b, c, d)); }
// The n-dimensional forms.
inline double norm(int dim, const double* p) { return cusim::detail::euclidean_norm(dim, p); }
inline float normf(int dim, const float* p) { return static_cast<float>(cusim::detail::euclidean_norm(dim, p)); }
inline double rnorm(int dim, const double* p) { return 1.0 / cusim::detail::euclidean_norm(dim, p); }
inline float rnormf(int dim, const float* p) { return static_cast<float>(1.0 / cusim::detail::euclidean_norm(dim, p)); }
inline float fdividef(float x, float y) { return x / y; }
// erfinv by Newton's method on erf, from a close first guess.
inline double erfinv(double y) {
  if (y <= -1.0) return y == -1.0 ? -HUGE_VAL : NAN;
  if (y >= 1.0) return y == 1.0 ? HUGE_VAL : NAN;
  const double w = -std::log((1.0 - y) * (1.0 + y));
  double x = (w < 5.0 ? 0.886226925452758 * y : std::copysign(std::sqrt(w - std::log(w)), y));
  for (int i = 0; i < 60; ++i) {
    const double step = (std::erf(x) - y) / (1.1283791670955126 * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x)) break;
  }
  return x;
}
inline float erfinvf(float y) { return static_cast<float>(erfinv(y)); }
namespace cusim::detail {
// log(erfc(x)) for x > 0, also where erfc(x) underflows (x beyond about
// 26.5): there from erfc's asymptotic series in t = 1 / (2x^2).
inline double log_erfc(double x) {
  if (x < 26) return std::log(std::erfc(x));
  const double t = 1 / (2 * x * x);
  const double series = 1 - t * (1 - 3 * t * (1 - 5 * t * (1 - 7 * t * (1 - 9 * t))));
  return -x * x - std::log(x * 1.7724538509055160273) + std::log(series);
}
}  // namespace cusim::detail
// erfcinv(y) solves erfc(x) = y. Near y = 1 as erfinv(1 - y) (exact enough
// there); for small y, where 1 - y would lose y, by Newton's method on
// log(erfc(x)) = log(y), which reaches the denormals (erfcinv(4.9e-324) is
// 27.2); for y > 1 by symmetry, erfcinv(y) = -erfcinv(2 - y) (2 - y exact).
inline double erfcinv(double y) {
  if (!(y > 0 && y < 2)) return y == 0 ? HUGE_VAL : y == 2 ? -HUGE_VAL : NAN;
  if (y > 1) return -erfcinv(2 - y);
  if (y > 1e-3) return erfinv(1.0 - y);
  const double target = std::log(y);
  double x = std::sqrt(-target);
  for (int i = 0; i < 60; ++i) {
    const double log_value = cusim::detail::log_erfc(x);
    // d/dx log(erfc(x)) = -(2/sqrt(pi)) exp(-x^2) / erfc(x)
    const double slope = -1.1283791670955126 * std::exp(-x * x - log_value);
    const double step = (log_value - target) / slope;
    x -= step;
    if (std::fabs(step) <= 1e-16 * x) break;
  }
  return x;
}
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
// erfcx(x) = exp(x^2) erfc(x): directly while erfc(x) does not underflow
// (the rounding of x^2, which exp magnifies, corrected), beyond from
// erfc's asymptotic series. Below about -26.6 it overflows to +inf.
inline double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < -26.7) return HUGE_VAL;
  if (x < 26) {
    const double square = x * x;
    return std::exp(square) * std::erfc(x) * (1 + std::fma(x, x, -square));
  }
  if (std::isinf(x)) return 0;
  const double t = 1 / (2 * x * x);
  return (1 - t * (1 - 3 * t * (1 - 5 * t * (1 - 7 * t * (1 - 9 * t))))) / (x * 1.7724538509055160273);
}
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
namespace cusim::detail {
// I_order(x) for order 0 or 1 from its power series, whose terms are all
// positive: sum (x/2)^(2k + order) / (k! (k + order)!).
inline double modified_bessel_i(int order, double x) {
  if (std::isnan(x)) return x;
  const double half = std::fabs(x) / 2;
  if (half > 360) return order == 1 && x < 0 ? -HUGE_VAL : HUGE_VAL;  // I0, I1 overflow past about 713
  double term = order == 0 ? 1 : half, sum = term;
  for (int k = 1; k < 2000; ++k) {
    term *= half * half / (double(k) * double(k + order));
    sum += term;
    if (term <= sum * 1e-17) break;
  }
  return order == 1 && x < 0 ? -sum : sum;
}
}  // namespace cusim::detail
inline double cyl_bessel_i0(double x) { return cusim::detail::modified_bessel_i(0, x); }
inline double cyl_bessel_i1(double x) { return cusim::detail::modified_bessel_i(1, x); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(cyl_bessel_i0(x)); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(cyl_bessel_i1(x)); }
// normcdfinv(p) = -sqrt(2) erfcinv(2p): p outside [0, 1] gives NaN.
inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
