// Kernels whose bodies only the device pass sees (`#if __CUDA_ARCH__ >= 700`
// around them, as several cuda-samples write): the merge puts a line marker
// between the head and the body, and the body is still a function's, so its
// __shared__ declarations are function-scope slots, its lambdas capture them,
// its malloc is the device heap's, and the kernel is registered after it
// (cudaLaunchKernel finds it by address). The rewriter's forms alone, as
// without clang's front end: shared_front_end_device_pass.cu has its marks.
// ENV: CUSIM_CC_KERNEL_FACTS=0
#include <cstdio>
#include <cstdlib>

__global__ void sums(int* out) {
#if __CUDA_ARCH__ >= 700
#pragma diag_suppress static_var_with_dynamic_init
  __shared__ int total;
  // CHECK: ::std::type_identity_t<int>& total = *static_cast<::std::type_identity_t<int>*>(::cusim::detail::shared_slot(cusim_shared_site_0));
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  auto add = [=](int v) { atomicAdd(&total, v); };
  // CHECK: [=, &total](int v)
  add(static_cast<int>(threadIdx.x));
  __syncthreads();
  int* scratch = static_cast<int*>(malloc(sizeof(int)));
  // CHECK: ::cusim::detail::device_malloc(
  *scratch = total;
  if (threadIdx.x == 0) *out = *scratch;
  free(scratch);
#endif
}
// CHECK: static const ::cusim::detail::kernel_registration<void(int* out)> cusim_kernel_registration_0(sums, "sums");

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  sums<<<1, 64>>>(d);
  int h = 0;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("total %d\n", h);
  // OUTPUT: total 2016
  cudaMemset(d, 0, sizeof(int));
  void* arguments[] = {&d};
  const cudaError_t launched = cudaLaunchKernel(reinterpret_cast<const void*>(sums), dim3(1), dim3(32), arguments, 0, 0);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("by address: %s, total %d\n", cudaGetErrorName(launched), h);
  // OUTPUT: by address: cudaSuccess, total 496
}
