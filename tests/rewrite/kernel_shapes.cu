// Kernels where a launch or a registration must find them: static members
// of classes (registered in the class, named by their qualified name;
// private ones and ones defined outside the class too), of nested classes
// and of class templates (launched, not registered), in namespaces, and
// launched through macros and with template arguments that hold '>'.
#include <cstdio>
#include <cuda_runtime.h>

namespace lib {
__global__ void in_namespace(int* out) { out[0] = 1; }
}  // namespace lib

struct alignas(16) holder {
  static __global__ void as_static_member(int* out) { out[1] = 2; }
  // CHECK: static inline const ::cusim::detail::kernel_registration<void(int* out)> cusim_kernel_registration_1{as_static_member, "holder::as_static_member"};
  struct inner {
    static __global__ void nested(int* out) { out[2] = 3; }
    // CHECK: {nested, "holder::inner::nested"};
  };
};

// Private (a class's default), and defined outside the class: registered
// where the class declares it.
class secretive {
  static __global__ void hidden(int* out);

 public:
  static void run(int* out) { hidden<<<1, 1>>>(out); }
};
// CHECK: {hidden, "secretive::hidden"};
__global__ void secretive::hidden(int* out) { out[5] = 6; }
// CHECK-NOT: (hidden, "hidden")

template <class T>
struct generic {
  static __global__ void member(T* out) { out[3] = T(4); }
};

template <int N>
__global__ void templated(int* out) { out[4] = N; }

#define LAUNCH(kernel, ...) kernel<<<1, 1>>>(__VA_ARGS__)

int main() {
  int* out;
  cudaMallocManaged(&out, 6 * sizeof(int));
  LAUNCH(lib::in_namespace, out);
  holder::as_static_member<<<1, 1>>>(out);
  LAUNCH(holder::inner::nested, out);
  generic<int>::member<<<1, 1>>>(out);
  templated<(3 > 2 ? 5 : 0)><<<1, 1>>>(out);
  secretive::run(out);
  cudaDeviceSynchronize();
  cudaFuncAttributes attributes{};
  const cudaError_t by_address = cudaFuncGetAttributes(&attributes, holder::as_static_member);
  std::printf("%d %d %d %d %d %d, attributes %s\n", out[0], out[1], out[2], out[3], out[4], out[5],
              cudaGetErrorString(by_address));
  // OUTPUT: 1 2 3 4 5 6, attributes no error
  return 0;
}
