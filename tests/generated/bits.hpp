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

// The kinds of shuffle, and the lane each reads by PTX's rule for
// shfl.sync: a lane past its segment reads its own value, and an xor may
// reach an earlier segment. (A source outside the mask, or past the end of
// a partial warp, reads an undefined value on a GPU.)
enum shuffle_kind : unsigned { shuffle_idx, shuffle_up, shuffle_down, shuffle_xor };
__device__ inline unsigned shuffle_source(shuffle_kind kind, unsigned lane, unsigned operand, unsigned width) {
  const unsigned segment_start = lane & ~(width - 1), segment_end = segment_start + width - 1;
  switch (kind) {
    case shuffle_idx: return segment_start + operand % width;
    case shuffle_up: return lane >= segment_start + operand ? lane - operand : lane;
    case shuffle_down: return lane + operand <= segment_end ? lane + operand : lane;
    default: return (lane ^ operand) <= segment_end ? lane ^ operand : lane;
  }
}
