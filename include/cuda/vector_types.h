// CUDA's built-in vector types (int2, float4, uint3, dim3, ...) and their
// make_* constructors, with the sizes and alignments nvcc gives them.
#pragma once
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif

#define CUSIM_VECTOR_TYPES_(name, T, a1, a2, a3, a4)                                      \
  struct alignas(a1) name##1 { T x; };                                                     \
  struct alignas(a2) name##2 { T x, y; };                                                  \
  struct name##3 { T x, y, z; };                                                           \
  struct alignas(a4) name##4 { T x, y, z, w; };                                            \
  inline constexpr name##1 make_##name##1(T x) { return {x}; }                             \
  inline constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }                     \
  inline constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }             \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

CUSIM_VECTOR_TYPES_(char, signed char, 1, 2, 1, 4)
CUSIM_VECTOR_TYPES_(uchar, unsigned char, 1, 2, 1, 4)
CUSIM_VECTOR_TYPES_(short, short, 2, 4, 2, 8)
CUSIM_VECTOR_TYPES_(ushort, unsigned short, 2, 4, 2, 8)
CUSIM_VECTOR_TYPES_(int, int, 4, 8, 4, 16)
CUSIM_VECTOR_TYPES_(uint, unsigned int, 4, 8, 4, 16)
CUSIM_VECTOR_TYPES_(long, long, 8, 16, 8, 16)
CUSIM_VECTOR_TYPES_(ulong, unsigned long, 8, 16, 8, 16)
CUSIM_VECTOR_TYPES_(longlong, long long, 8, 16, 8, 16)
CUSIM_VECTOR_TYPES_(ulonglong, unsigned long long, 8, 16, 8, 16)
CUSIM_VECTOR_TYPES_(float, float, 4, 8, 4, 16)
CUSIM_VECTOR_TYPES_(double, double, 8, 16, 8, 16)

#undef CUSIM_VECTOR_TYPES_

// dim3: a launch or block shape. Unspecified components are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
