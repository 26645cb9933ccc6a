// 210 — Thrust: sorting 2^18 keys with their values, a reduction, and
// the program's own kernel on the same device_vector.
//
// thrust::device_vector's memory is device memory: thrust::raw_pointer_cast
// gives the pointer a kernel takes. Thrust's algorithms run in stream
// order, after the kernels launched before them, so the sort below sees
// what `scramble` wrote without a cudaDeviceSynchronize (on cusim as on a
// GPU: docs/libraries.md#thrust says how).
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cstdio>

#include "../common/check.h"

// keys[i] = a permutation of 0..n-1 (n a power of two, the multiplier odd),
// by a grid-stride loop: a few blocks cover any n.
__global__ void scramble(unsigned int* keys, unsigned int n) {
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    keys[i] = (i * 2654435761u) & (n - 1);
  }
}

int main() {
  const unsigned int n = 1u << 18;
  thrust::device_vector<unsigned int> keys(n);
  thrust::device_vector<unsigned int> values(n);
  thrust::sequence(values.begin(), values.end());  // values[i] = i: where each key started
  scramble<<<32, 256>>>(thrust::raw_pointer_cast(keys.data()), n);
  CHECK(cudaGetLastError());

  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  const unsigned long long key_sum = thrust::reduce(keys.begin(), keys.end(), 0ULL);

  thrust::host_vector<unsigned int> sorted = keys;
  thrust::host_vector<unsigned int> origin = values;
  bool ok = key_sum == static_cast<unsigned long long>(n) * (n - 1) / 2;
  for (unsigned int i = 0; i < n && ok; ++i) {
    ok = sorted[i] == i && ((origin[i] * 2654435761u) & (n - 1)) == i;
  }
  printf("sorted %u keys; the sum of the keys is %llu; key 12345 came from position %u\n", n, key_sum, origin[12345]);
  printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
