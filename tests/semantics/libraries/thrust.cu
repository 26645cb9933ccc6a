// Thrust on cusim: containers, algorithms, fancy iterators, functors and
// __device__ lambdas, raw pointers passed to the program's own kernels, and
// Thrust calls in stream order after those kernels. Prints PASSED when every
// result matches; diff.thrust compares the output with an H200's (where
// Thrust runs its CUDA system).
// FLAGS: --extended-lambda
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>
#include <cstdio>

#include "expect.h"

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};
struct saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

// Slow on purpose: the Thrust call after it must still see all it wrote.
__global__ void fill(int* p, int n, int value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    for (volatile int k = 0; k < 20; k = k + 1) {
    }
    p[i] = value;
  }
}

int main() {
  expectations expected;
  auto check = [&](const char* what, long long got, long long want) { expected.check(what, got, want); };

  // Sort by key, scans, copy_if, unique, count.
  thrust::host_vector<int> h(16);
  for (int i = 0; i < 16; ++i) h[i] = (i * 7) % 16;
  thrust::device_vector<int> keys = h;
  thrust::device_vector<int> values(16);
  thrust::sequence(values.begin(), values.end(), 100);
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  check("value of key 3", values[3], 100 + 5);  // 5 * 7 % 16 == 3
  thrust::inclusive_scan(keys.begin(), keys.end(), keys.begin());
  check("inclusive scan, last", keys[15], 120);
  thrust::exclusive_scan(keys.begin(), keys.end(), keys.begin());
  check("exclusive scan, last", keys[15], 560);  // the sum of the first 15 triangular numbers
  thrust::device_vector<int> odd(16);
  auto odd_end = thrust::copy_if(values.begin(), values.end(), odd.begin(), is_odd());
  check("copy_if odd", odd_end - odd.begin(), 8);
  int repeated[8] = {1, 1, 2, 2, 2, 3, 1, 1};
  thrust::device_vector<int> runs(repeated, repeated + 8);
  check("unique", thrust::unique(runs.begin(), runs.end()) - runs.begin(), 4);
  check("count", thrust::count(values.begin(), values.end(), 107), 1);

  // transform with a functor, and with a __device__ lambda.
  thrust::device_vector<float> x(1000), y(1000);
  thrust::sequence(x.begin(), x.end());
  thrust::fill(y.begin(), y.end(), 1.0f);
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{2.0f});
  check("saxpy sum", static_cast<long long>(thrust::reduce(y.begin(), y.end())), 2 * 999 * 1000 / 2 + 1000);
  thrust::transform(x.begin(), x.end(), x.begin(), [] __device__(float v) { return v * v; });
  check("lambda, largest", static_cast<long long>(thrust::reduce(x.begin(), x.end(), 0.0f, thrust::maximum<float>())),
        999 * 999);

  // Fancy iterators.
  auto squares = thrust::make_transform_iterator(thrust::counting_iterator<int>(1),
                                                 [] __host__ __device__(int i) { return i * i; });
  check("sum of squares 1..10", thrust::reduce(squares, squares + 10), 385);
  auto pairs = thrust::make_zip_iterator(thrust::make_tuple(values.begin(), keys.begin()));
  check("zip, second of pair 2", thrust::get<1>(pairs[2]), keys[2]);

  // The program's own kernel on a device_vector, then Thrust, in stream order.
  const int n = 1 << 20;
  thrust::device_vector<int> ones(n, 0);
  int* raw = thrust::raw_pointer_cast(ones.data());
  fill<<<32, 256>>>(raw, n, 1);
  check("reduce after a kernel", thrust::reduce(ones.begin(), ones.end(), 0LL), n);
  fill<<<32, 256>>>(raw, n, 2);
  check("reduce(thrust::device) after a kernel", thrust::reduce(thrust::device, ones.begin(), ones.end(), 0LL), 2LL * n);
  fill<<<32, 256>>>(raw, n, 3);
  check("element read after a kernel", ones[n - 1], 3);

  // device_malloc'd memory is device memory: cudaMemcpy and attributes agree.
  thrust::device_ptr<int> block = thrust::device_malloc<int>(64);
  int host[64];
  for (int i = 0; i < 64; ++i) host[i] = 64 - i;
  check("cudaMemcpy to device_malloc memory", cudaMemcpy(block.get(), host, sizeof(host), cudaMemcpyHostToDevice),
        cudaSuccess);
  thrust::sort(block, block + 64);
  cudaMemcpy(host, block.get(), sizeof(host), cudaMemcpyDeviceToHost);
  check("sorted, first and last", host[0] * 100 + host[63], 164);
  cudaPointerAttributes attributes;
  cudaPointerGetAttributes(&attributes, thrust::raw_pointer_cast(ones.data()));
  check("device_vector memory type", attributes.type, cudaMemoryTypeDevice);
  thrust::device_free(block);

  check("errors", cudaDeviceSynchronize(), cudaSuccess);
  return expected.passed();
}
