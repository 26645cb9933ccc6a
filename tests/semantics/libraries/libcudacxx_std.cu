// libcu++'s cuda::std headers that kernels use beyond the containers and
// traits (libcudacxx.cu has those): span over shared memory, <bit>,
// <numeric>, <concepts>, <cstring>, <cstdlib>, <bitset>, <numbers>,
// <memory>, <ranges>. Prints PASSED when every result matches;
// diff.libcudacxx_std compares the output with a GPU's.
#include <cuda/std/bit>
#include <cuda/std/bitset>
#include <cuda/std/concepts>
#include <cuda/std/cstdlib>
#include <cuda/std/cstring>
#include <cuda/std/memory>
#include <cuda/std/numbers>
#include <cuda/std/numeric>
#include <cuda/std/ranges>
#include <cuda/std/span>
#include <cstdio>

#include "expect.h"

// A concept in C++20, a variable template in libcu++'s C++17 (nvcc's default).
template <class T>
__device__ T twice(T x) {
  static_assert(cuda::std::integral<T> && !cuda::std::floating_point<T>);
  return x * 2;
}

__device__ int sum_of(cuda::std::span<const int> values) { return cuda::std::accumulate(values.begin(), values.end(), 0); }

__global__ void std_in_kernels(int* out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = static_cast<int>(threadIdx.x) - 10;
  __syncwarp();
  if (threadIdx.x != 0) return;
  const cuda::std::span<const int> all(tile);
  out[0] = sum_of(all);
  out[1] = sum_of(all.subspan(4, 8));
  out[2] = static_cast<int>(cuda::std::popcount(0xF0F0u));
  out[3] = cuda::std::countl_zero(1u);
  out[4] = static_cast<int>(cuda::std::bit_cast<unsigned>(1.0f) >> 23);
  out[5] = static_cast<int>(cuda::std::bitset<12>(0xABCu).count());
  out[6] = static_cast<int>(cuda::std::numbers::e_v<float> * 1000);
  out[7] = twice(21);
  float f = 0;
  const unsigned bits = 0x40490fdbu;  // pi
  cuda::std::memcpy(&f, &bits, sizeof f);
  out[8] = static_cast<int>(f * 1000);
  out[9] = cuda::std::abs(-17);
  out[10] = static_cast<int>(cuda::std::has_single_bit(64u)) + static_cast<int>(cuda::std::bit_ceil(5u));
  out[11] = *cuda::std::addressof(tile[3]);
  out[12] = cuda::std::gcd(84, 36);
  out[13] = static_cast<int>(cuda::std::bit_width(1000u));
  out[14] = static_cast<int>(cuda::std::ranges::distance(all));
}

int main() {
  expectations expect;
  int* out;
  cudaMallocManaged(&out, 16 * sizeof(int));
  std_in_kernels<<<1, 32>>>(out);
  expect.check("kernel", cudaDeviceSynchronize(), cudaSuccess);
  expect.check("accumulate over a span of shared memory", out[0], 176);
  expect.check("over its subspan(4, 8)", out[1], -20);
  expect.check("popcount", out[2], 8);
  expect.check("countl_zero", out[3], 31);
  expect.check("bit_cast", out[4], 127);
  expect.check("bitset::count", out[5], 7);
  expect.check("numbers::e_v", out[6], 2718);
  expect.check("a template checked with concepts", out[7], 42);
  expect.check("memcpy", out[8], 3141);
  expect.check("abs", out[9], 17);
  expect.check("has_single_bit + bit_ceil", out[10], 9);
  expect.check("addressof", out[11], -7);
  expect.check("gcd", out[12], 12);
  expect.check("bit_width", out[13], 10);
  expect.check("ranges::distance", out[14], 32);
  return expect.passed();
}
