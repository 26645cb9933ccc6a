// Thrust's CUDA execution policies, as programs written for nvcc name them:
// thrust::cuda::par, .on(stream), par_nosync, par(allocator).on(stream).
// On cusim they are the device system's (Thrust's C++ system): each
// algorithm runs after the kernels queued before it, here a slow one on a
// stream of its own. Prints PASSED when every result matches;
// diff.thrust_cuda_policies compares the output with a GPU's.
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <cstddef>
#include <cstdio>

#include "expect.h"

// Temporary storage from cudaMalloc, counted.
struct counting_allocator {
  using value_type = char;
  int* calls;
  char* allocate(std::ptrdiff_t bytes) {
    ++*calls;
    char* p = nullptr;
    cudaMalloc(&p, bytes);
    return p;
  }
  void deallocate(char* p, std::size_t) { cudaFree(p); }
};

// Slow on purpose: the algorithm after it must see all it wrote.
__global__ void scramble(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (volatile int k = 0; k < 50; k = k + 1) {
  }
  if (i < n) p[i] = (i * 7919) % n;
}

int main() {
  expectations expect;
  const int n = 1 << 16;
  thrust::device_vector<int> v(n);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int calls = 0;
  counting_allocator allocator{&calls};

  scramble<<<n / 256, 256, 0, stream>>>(thrust::raw_pointer_cast(v.data()), n);
  thrust::sort(thrust::cuda::par(allocator).on(stream), v.begin(), v.end());
  expect.check("sorted with par(allocator).on(stream): first", v[0], 0);
  expect.check("sorted with par(allocator).on(stream): last", v[n - 1], n - 1);
  expect.check("the allocator gave temporary storage", calls > 0, true);

  scramble<<<n / 256, 256, 0, stream>>>(thrust::raw_pointer_cast(v.data()), n);
  expect.check("reduce with par.on(stream)", thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end(), 0LL),
               static_cast<long long>(n) * (n - 1) / 2);
  scramble<<<n / 256, 256>>>(thrust::raw_pointer_cast(v.data()), n);
  expect.check("count with par", thrust::count(thrust::cuda::par, v.begin(), v.end(), 7919 % n), 1);
  thrust::sort(thrust::cuda::par_nosync, v.begin(), v.end());
  cudaDeviceSynchronize();
  expect.check("sorted with par_nosync, then synchronised: element 12345", v[12345], 12345);
  cudaStreamDestroy(stream);
  return expect.passed();
}
