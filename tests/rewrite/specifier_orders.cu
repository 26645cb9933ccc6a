// Declarations and launches in shapes nvcc takes that the rewriter once
// refused (HeCBench: d3q19-bgk, mriQ, hungarian, convolution1D, geglu):
// specifiers after __constant__ and __shared__, a __constant__ variable
// template, and a launch inside a lambda whose template arguments are
// constexpr locals. nvcc 13 builds this file (nvcc.build.specifier_orders).
#include <cstdio>

__constant__ static char offsets[4];
// CHECK: static char cusim_constant_storage_offsets[4]; static decltype(cusim_constant_storage_offsets)& offsets
__constant__ __device__ int weights[4];
// CHECK: static int cusim_constant_storage_weights[4]; decltype(cusim_constant_storage_weights)& weights

template <typename T>
__constant__ T mask[4];
// CHECK: template <typename T> static T cusim_constant_storage_mask[4]; template <typename T> decltype(cusim_constant_storage_mask<T>)& mask = ::cusim::detail::registered_constant(cusim_constant_storage_mask<T>);

typedef int element;
__shared__ extern element reversed[];

__global__ void combine(int* out) {
  __shared__ static int tile[4];
  tile[threadIdx.x] = offsets[threadIdx.x] + weights[threadIdx.x];
  reversed[threadIdx.x] = tile[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = reversed[3 - threadIdx.x];
}

template <typename T>
__global__ void masked(T* out) {
  out[threadIdx.x] = mask<T>[threadIdx.x] * 2;
}

template <int Block, int Extra>
__global__ void sum_of(int* out) {
  out[threadIdx.x] = Block + Extra;
}

int main() {
  const char offsets_here[4] = {1, 2, 3, 4};
  const int weights_here[4] = {10, 20, 30, 40};
  const float mask_here[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(offsets, offsets_here, sizeof offsets_here);
  cudaMemcpyToSymbol(weights, weights_here, sizeof weights_here);
  cudaMemcpyToSymbol(mask<float>, mask_here, sizeof mask_here);
  int* out;
  float* scaled;
  cudaMallocManaged(&out, 4 * sizeof(int));
  cudaMallocManaged(&scaled, 4 * sizeof(float));
  combine<<<1, 4, 4 * sizeof(int)>>>(out);
  masked<float><<<1, 4>>>(scaled);
  cudaDeviceSynchronize();
  printf("%d %d %g %g\n", out[0], out[3], scaled[0], scaled[3]);
  constexpr int block = 4;
  [&] {
    constexpr int extra = 10;
    sum_of<block, extra><<<1, block>>>(out);
  }();
  cudaDeviceSynchronize();
  printf("%d %s\n", out[3], cudaGetErrorString(cudaGetLastError()));
  // OUTPUT: 44 11 2 8
  // OUTPUT: 14 no error
}
