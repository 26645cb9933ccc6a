// <cuComplex.h>: CUDA's complex numbers, float2 and double2 with functions
// usable on the host and in kernels (plain functions here: cusim runs both).
// The arithmetic is rounded as nvcc 13 compiles CUDA's header by default
// (-fmad=true): some products are fused with the addition that follows
// them and some are not, as measured (diff.intrinsics.complex compares
// every function's bits with an H200's). Division and the modulus scale their operands first, as CUDA's
// do, so that they neither overflow nor underflow where the result fits.
#pragma once
#include <cmath>

#include <vector_types.h>

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

namespace cusim::detail::complex_numbers {

// What the float and double forms share: T is float or double, C its complex type.
template <class T, class C>
inline C make(T re, T im) {
  C c;
  c.x = re;
  c.y = im;
  return c;
}
// A product rounded on its own: where the CPU has FMA instructions the host
// compiler may fuse it into the addition that follows, which nvcc does not.
template <class T>
inline T rounded_product(T a, T b) {
#if defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
  volatile T product = a * b;
  return product;
#else
  return a * b;
#endif
}
template <class T, class C>
inline C multiply(C a, C b) {
  return make<T, C>(std::fma(a.x, b.x, -rounded_product(a.y, b.y)), std::fma(a.y, b.x, rounded_product(a.x, b.y)));
}
// (a * b) + d: CUDA adds re(a) re(b) and re(d), then subtracts im(a) im(b);
// adds re(a) im(b) and im(d), then im(a) re(b).
template <class T, class C>
inline C multiply_add(C a, C b, C d) {
  return make<T, C>(std::fma(a.x, b.x, d.x) - rounded_product(a.y, b.y),
                    std::fma(a.y, b.x, rounded_product(a.x, b.y) + d.y));
}
// Both operands scaled by 1 / (|b.re| + |b.im|) before the textbook formula.
template <class T, class C>
inline C divide(C a, C b) {
  T scale = T(1) / (std::fabs(b.x) + std::fabs(b.y));
  const T ar = a.x * scale, ai = a.y * scale, br = b.x * scale, bi = b.y * scale;
  scale = T(1) / std::fma(br, br, rounded_product(bi, bi));
  return make<T, C>(std::fma(ar, br, rounded_product(ai, bi)) * scale, std::fma(ai, br, -rounded_product(ar, bi)) * scale);
}
// |c| = v * sqrt(1 + (w / v)^2), v the larger part's magnitude, w the
// smaller's; v + w where v is 0 or a part is infinite or NaN-free huge.
template <class T, class C>
inline T modulus(C c, T largest) {
  const T a = std::fabs(c.x), b = std::fabs(c.y);
  const T v = a > b ? a : b, w = a > b ? b : a;
  T t = w / v;
  t = v * std::sqrt(std::fma(t, t, T(1)));
  if (v == T(0) || v > largest || w > largest) t = v + w;
  return t;
}

}  // namespace cusim::detail::complex_numbers

// The float functions end in f (cuCmulf), the double ones do not (cuCmul).
#define CUSIM_COMPLEX_FUNCTIONS_(S, T, C, MAKE, LARGEST)                                                  \
  inline T cuCreal##S(C c) { return c.x; }                                                               \
  inline T cuCimag##S(C c) { return c.y; }                                                               \
  inline C MAKE(T re, T im) { return cusim::detail::complex_numbers::make<T, C>(re, im); }               \
  inline C cuConj##S(C c) { return MAKE(c.x, -c.y); }                                                    \
  inline C cuCadd##S(C a, C b) { return MAKE(a.x + b.x, a.y + b.y); }                                    \
  inline C cuCsub##S(C a, C b) { return MAKE(a.x - b.x, a.y - b.y); }                                    \
  inline C cuCmul##S(C a, C b) { return cusim::detail::complex_numbers::multiply<T>(a, b); }             \
  inline C cuCdiv##S(C a, C b) { return cusim::detail::complex_numbers::divide<T>(a, b); }               \
  inline T cuCabs##S(C c) { return cusim::detail::complex_numbers::modulus<T>(c, LARGEST); }             \
  inline C cuCfma##S(C a, C b, C d) { return cusim::detail::complex_numbers::multiply_add<T>(a, b, d); }
CUSIM_COMPLEX_FUNCTIONS_(f, float, cuFloatComplex, make_cuFloatComplex, 3.402823466e38f)
CUSIM_COMPLEX_FUNCTIONS_(, double, cuDoubleComplex, make_cuDoubleComplex, 1.79769313486231570e+308)
#undef CUSIM_COMPLEX_FUNCTIONS_

inline cuComplex make_cuComplex(float re, float im) { return make_cuFloatComplex(re, im); }
inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(double(c.x), double(c.y));
}
inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(float(c.x), float(c.y));
}
