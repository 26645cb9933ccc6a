// Kernels passed as `const void*` (cudaLaunchKernel((void*)k, ...)) must be
// known by address: cusim-cc registers each non-template kernel after its
// definition, with its parameter types (default arguments dropped; the
// types pick the overload). A kernel only declared is not registered: one
// that is never defined must not be needed by the link (nvcc's neither).
// A kernel template's body names the registration of the instance it is,
// so each instance the program makes is registered as it starts, launched
// or not (cuda-training-series hw9 passes `(void*)k<T>` to
// cudaLaunchCooperativeKernel).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void declared_first(int* out, int value);
__global__ void never_defined(int* out);
// CHECK-NOT: (never_defined, "never_defined")

namespace work {
__global__ void add(int* out, int value = 5) { atomicAdd(out, value); }
// CHECK: kernel_registration<void(int* out, int value )> cusim_kernel_registration_0(add, "add");
__global__ void add(int* out, int a, int b) { atomicAdd(out, a * b); }
}  // namespace work

static __global__ void quiet(int* out) { out[1] = 1; }

template <class T>
__global__ void generic(T* out) { *out += 1; }
// CHECK: void generic(T* out) { (void)::cusim::detail::registered_template_kernel<static_cast<void (*)(T* out)>(generic<T>), "generic">::registration; *out += 1; }

__global__ void declared_first(int* out, int value) { atomicAdd(out, value * 100); }
// CHECK: kernel_registration<void(int* out, int value)> cusim_kernel_registration_3(declared_first, "declared_first");

int main() {
  int* out;
  cudaMallocManaged(&out, 2 * sizeof(int));
  out[0] = out[1] = 0;
  int value = 3, a = 2, b = 7;
  void* one[] = {&out, &value};
  void* three[] = {&out, &a, &b};
  void (*add2)(int*, int) = work::add;
  void (*add3)(int*, int, int) = work::add;
  cudaLaunchKernel((void*)add2, dim3(1), dim3(4), one);           // 4 * 3
  cudaLaunchKernel((void*)add3, dim3(1), dim3(2), three);         // 2 * 14
  cudaLaunchKernel((void*)declared_first, dim3(1), dim3(1), one); // 300
  cudaLaunchKernel((void*)quiet, dim3(1), dim3(1), one);
  const cudaError_t instance = cudaLaunchKernel((void*)generic<int>, dim3(1), dim3(1), one);  // 1
  cudaDeviceSynchronize();
  std::printf("%d %d %s\n", out[0], out[1], cudaGetErrorName(instance));
  // OUTPUT: 341 1 cudaSuccess
  return 0;
}
