// Device-side bit patterns for the generated suite: the cases carry every
// operand and result as the low bytes of a 64-bit word.
#pragma once
#include <cstring>

template <class T>
__device__ T from_bits(unsigned long long bits) {
  T value;
  memcpy(&value, &bits, sizeof value);
  return value;
}
template <class T>
__device__ unsigned long long bits_of(T value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof value);
  return bits;
}
