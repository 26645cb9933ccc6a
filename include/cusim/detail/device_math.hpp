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
inline float sinpif(float x) { return static_cast<float>(std::sin(3.14159265358979323846 * double(x))); }
inline double sinpi(double x) { return std::sin(3.14159265358979323846 * x); }
inline float cospif(float x) { return static_cast<float>(std::cos(3.14159265358979323846 * double(x))); }
inline double cospi(double x) { return std::cos(3.14159265358979323846 * x); }
inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}
inline void sincospi(double x, double* s, double* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
inline float normcdff(float x) { return 0.5f * std::erfc(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x * 0.70710678118654752); }
inline float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(std::hypot(double(a), double(b), double(c))); }
inline double norm3d(double a, double b, double c) { return std::hypot(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
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
inline double erfcinv(double y) { return erfinv(1.0 - y); }
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
