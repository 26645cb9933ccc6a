// Kernels where a launch or a registration must find them: in namespaces,
// declared first and defined with their namespace's qualification,
// launched through macros and with template arguments that hold '>', and
// declared friends of a class. (A kernel cannot be a member of a class:
// error_member_kernel.cu.)
#include <cstdio>
#include <cuda_runtime.h>

namespace lib {
__global__ void in_namespace(int* out) { out[0] = 1; }
// CHECK: cusim_kernel_registration_0(in_namespace, "in_namespace");
__global__ void declared_in_namespace(int* out);
}  // namespace lib

// Defined outside its namespace: registered after the definition, by its
// qualified name.
__global__ void lib::declared_in_namespace(int* out) { out[1] = 2; }
// CHECK: cusim_kernel_registration_1(lib::declared_in_namespace, "declared_in_namespace");

__global__ void befriended(int* out);

class secretive {
  int value = 3;
  friend __global__ void befriended(int* out);
};

__global__ void befriended(int* out) { out[2] = secretive{}.value; }

template <class T>
__global__ void generic(T* out) { out[3] = T(4); }

template <int N>
__global__ void templated(int* out) { out[4] = N; }

#define LAUNCH(kernel, ...) kernel<<<1, 1>>>(__VA_ARGS__)

int main() {
  int* out;
  cudaMallocManaged(&out, 5 * sizeof(int));
  LAUNCH(lib::in_namespace, out);
  lib::declared_in_namespace<<<1, 1>>>(out);
  LAUNCH(befriended, out);
  generic<int><<<1, 1>>>(out);
  templated<(3 > 2 ? 5 : 0)><<<1, 1>>>(out);
  cudaDeviceSynchronize();
  cudaFuncAttributes attributes{};
  const cudaError_t by_address = cudaFuncGetAttributes(&attributes, lib::declared_in_namespace);
  std::printf("%d %d %d %d %d, attributes %s\n", out[0], out[1], out[2], out[3], out[4],
              cudaGetErrorString(by_address));
  // OUTPUT: 1 2 3 4 5, attributes no error
  return 0;
}
