// Device-side bits for the generated suite: the cases carry every operand
// and result as the low bytes of a 64-bit word, and derive per-thread
// values from a seed with mix().
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

// A 32-bit integer hash (a xorshift-multiply finaliser): per-thread values
// from a case's seed, and values that depend on every earlier result.
__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}
