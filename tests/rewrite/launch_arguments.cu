// Shapes of arguments and device functions from llm.c's kernels
// (dev/cuda/classifier_fused.cu, softmax_forward.cu), which nvcc takes:
// NULL or 0 passed for a pointer parameter (g++'s NULL is a `long`, and 0
// an `int`, once the launcher forwards them: in a launch's arguments they
// become stand-ins that convert to a pointer or a number, and that a
// template's deduction takes for the `long` and `int` they are), and a
// __forceinline__ function passed by pointer to cooperative_groups::reduce
// (g++ refuses always_inline there at -O1: under g++ __forceinline__ is a
// hint). nvcc 13 builds this file (nvcc.build.launch_arguments).
// FLAGS: -O1
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstddef>
#include <cstdio>
namespace cg = cooperative_groups;

__device__ __forceinline__ float add_op(float a, float b) { return a + b; }

__global__ void counted(int* out, int n) { *out = n + 5; }  // NULL for an int: 0, with g++'s warning

// Templates: `0` converts to the pointer parameter of `store_if<float>`,
// and where T is deduced from it, T is the `int` it is.
template <class T>
__global__ void store_if(T value, T* out) {
  if (out != nullptr) *out = value;
}
template <class T>
__global__ void size_of(T, int* out) {
  *out = sizeof(T);
}

__global__ void maybe_scaled(float* out, const float* scale, int* flag) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const float sum = cg::reduce(warp, float(threadIdx.x), add_op);
  if (threadIdx.x == 0) *out = scale == NULL ? sum : sum * *scale;
  if (flag != NULL && threadIdx.x == 0) *flag = 1;
}

int main() {
  float* out;
  float* scale;
  cudaMallocManaged(&out, sizeof(float));
  cudaMallocManaged(&scale, sizeof(float));
  *scale = 2.0f;
  maybe_scaled<<<1, 32>>>(out, NULL, NULL);
  cudaDeviceSynchronize();
  const float unscaled = *out;
  maybe_scaled<<<1, 32>>>(out, scale, NULL);
  cudaDeviceSynchronize();
  int* count;
  cudaMallocManaged(&count, sizeof(int));
  counted<<<1, 1>>>(count, NULL);
  cudaDeviceSynchronize();
  int nulls = *count;
  maybe_scaled<<<1, 32>>>(out, 0, 0);
  // CHECK: (out, ::cusim::detail::zero_argument{}, ::cusim::detail::zero_argument{});
  counted<<<1, 1>>>(count, 0);
  cudaDeviceSynchronize();
  nulls += *count;
  store_if<float><<<1, 1>>>(2.0f, 0);
  // CHECK: (2.0f, ::cusim::detail::zero_argument{});
  size_of<<<1, 1>>>(0, count);
  cudaDeviceSynchronize();
  printf("%.0f %.0f %d %d %s\n", unscaled, *out, nulls, *count, cudaGetErrorString(cudaGetLastError()));
  // OUTPUT: 496 496 10 4 no error
}
