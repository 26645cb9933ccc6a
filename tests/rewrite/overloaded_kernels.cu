// Kernels overloaded by their number of parameters (cuda-samples'
// cdpAdvancedQuicksort declares two qsort_warp): a launch names the
// overload set, and its arguments choose, as nvcc's launch does. A kernel
// declared once, then defined, is not overloaded.
#include <cstdio>

__global__ void pick(int* out, int a);
__global__ void pick(int* out, int a, int b) { out[0] = a + b; }
__global__ void pick(int* out, int a) { out[0] = a * 100; }
__global__ void single(int* out);
__global__ void single(int* out) { out[0] = -1; }

int main() {
  int* d;
  cudaMallocManaged(&d, sizeof(int));
  pick<<<1, 1>>>(d, 3, 4);
  // CHECK: ::cusim::detail::launch_deduced("pick"
  cudaDeviceSynchronize();
  printf("two: %d\n", d[0]);
  // OUTPUT: two: 7
  pick<<<1, 1>>>(d, 3);
  cudaDeviceSynchronize();
  printf("one: %d\n", d[0]);
  // OUTPUT: one: 300
  pick<<<1, 1>>>(d, 2u, true);  // no overload takes (unsigned, bool) exactly: C++ converts
  cudaDeviceSynchronize();
  printf("converted: %d\n", d[0]);
  // OUTPUT: converted: 3
  single<<<1, 1>>>(d);
  // CHECK: ::cusim::detail::launch_named("single", single, 1, 1)
  cudaDeviceSynchronize();
  printf("single: %d\n", d[0]);
  // OUTPUT: single: -1
}
