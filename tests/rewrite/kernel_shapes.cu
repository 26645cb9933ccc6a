// Kernels where a launch or a registration must find them: static members
// of classes (registered after the class, by qualified name), of nested
// classes and of class templates (launched, not registered), in namespaces,
// and launched through macros and with template arguments that hold '>'.
#include <cstdio>
#include <cuda_runtime.h>

namespace lib {
__global__ void in_namespace(int* out) { out[0] = 1; }
}  // namespace lib

struct holder {
  static __global__ void as_static_member(int* out) { out[1] = 2; }
  struct inner {
    static __global__ void nested(int* out) { out[2] = 3; }
  };
};
// CHECK: (holder::as_static_member, "holder::as_static_member");
// CHECK: (holder::inner::nested, "holder::inner::nested");
// CHECK-NOT: (as_static_member, "as_static_member")

template <class T>
struct generic {
  static __global__ void member(T* out) { out[3] = T(4); }
};

template <int N>
__global__ void templated(int* out) { out[4] = N; }

#define LAUNCH(kernel, ...) kernel<<<1, 1>>>(__VA_ARGS__)

int main() {
  int* out;
  cudaMallocManaged(&out, 5 * sizeof(int));
  LAUNCH(lib::in_namespace, out);
  holder::as_static_member<<<1, 1>>>(out);
  LAUNCH(holder::inner::nested, out);
  generic<int>::member<<<1, 1>>>(out);
  templated<(3 > 2 ? 5 : 0)><<<1, 1>>>(out);
  cudaDeviceSynchronize();
  cudaFuncAttributes attributes{};
  const cudaError_t by_address = cudaFuncGetAttributes(&attributes, holder::as_static_member);
  std::printf("%d %d %d %d %d, attributes %s\n", out[0], out[1], out[2], out[3], out[4],
              cudaGetErrorString(by_address));
  // OUTPUT: 1 2 3 4 5, attributes no error
  return 0;
}
