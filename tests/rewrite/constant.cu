// __constant__ variables: file-local storage, and the name a reference to
// it, so kernels read them, take non-const pointers into them as nvcc allows
// (cuda-samples' quasirandomGenerator), and cudaMemcpyToSymbol fills them.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float weights[3] = {1.0f, 2.0f, 3.0f}, bias;
// CHECK: static float cusim_constant_storage_weights[3] = {1.0f, 2.0f, 3.0f};
// CHECK: decltype(cusim_constant_storage_weights)& weights = cusim_constant_storage_weights;
// CHECK: static float cusim_constant_storage_bias; decltype(cusim_constant_storage_bias)& bias
static __constant__ char banner[] = "a;b,c";
// CHECK: static char cusim_constant_storage_banner[] = "a;b,c";
__constant__ int
    spread_over_lines[2]
    = {4,
       5};

__global__ void weigh(float* out) {
  int* second = &spread_over_lines[1];  // a pointer into constant memory, not const-qualified, as in nvcc
  out[threadIdx.x] = weights[threadIdx.x] * 2 + bias + banner[1] + *second;
}

int main() {
  float* out;
  cudaMallocManaged(&out, 3 * sizeof(float));
  const float host_bias = 0.5f;
  cudaMemcpyToSymbol(bias, &host_bias, sizeof host_bias);
  weigh<<<1, 3>>>(out);
  cudaDeviceSynchronize();
  std::printf("%.1f %.1f %.1f line %d\n", out[0], out[1], out[2], __LINE__);
  // ';' is 59: 2 + 0.5 + 59 + 5 = 66.5
  // OUTPUT: 66.5 68.5 70.5 line 30
  return 0;
}
