// __CUDA_ARCH__ as nvcc's two passes set it: defined (to the architecture,
// 900 for sm_90) in the code of __global__ and __device__ functions, in
// __host__ __device__ functions when a kernel calls them, and in device-only
// declarations; undefined in host code and in __host__ __device__ functions
// the host calls. The H100/H200 prints the same (tests/golden/cuda_arch.txt).
#include <cstdio>
#include <cuda_runtime.h>

// Declarations only the device pass has.
#if __CUDA_ARCH__ >= 700
__device__ int tripled(int x) { return x * 3; }
#endif

template <class T>
__device__ T twice(T x) {
  return 2 * x;
}
#if __CUDA_ARCH__ >= 800
template <>
__device__ int twice<int>(int x) {
  return 2 * x + 1000;  // the specialisation only the device pass declares
}
#endif

// Host and device bodies of one function.
__host__ __device__ int arch_seen() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

// A macro that expands differently in the two passes, in a one-line body.
#ifdef __CUDA_ARCH__
#define ARCH_OR_ZERO __CUDA_ARCH__
#else
#define ARCH_OR_ZERO 0
#endif
__host__ __device__ int arch_in_macro() { return ARCH_OR_ZERO; }

struct offset_by_side {
  __host__ __device__ int operator()(int x) const {
#if defined(__CUDA_ARCH__)
    return x + 1;
#else
    return x - 1;
#endif
  }
};

// A member function only the device pass declares, and a lambda inside a
// kernel (device code, though it has no __device__ of its own).
struct counter {
  int value;
#ifdef __CUDA_ARCH__
  __device__ int device_value() const { return value + 100; }
#endif
};

__global__ void report(int* out) {
#if __CUDA_ARCH__ >= 700
  out[0] = tripled(7);
#else
  out[0] = -7;
#endif
  out[1] = twice(5);
  out[2] = arch_seen();
  out[3] = arch_in_macro();
  out[4] = offset_by_side{}(10);
  auto scale = [](int v) {
#ifdef __CUDA_ARCH__
    return v * 10;
#else
    return -v;
#endif
  };
  out[5] = scale(4);
#ifdef __CUDA_ARCH__
  out[6] = counter{5}.device_value();
#else
  out[6] = -5;
#endif
}

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 7 * sizeof(int));
  report<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  std::printf("kernel: tripled %d, twice %d, arch %d, macro %d, functor %d, lambda %d, member %d\n", out[0], out[1],
              out[2], out[3], out[4], out[5], out[6]);
  const int host_arch = arch_seen(), host_macro = arch_in_macro(), host_functor = offset_by_side{}(10);
  std::printf("host: arch %d, macro %d, functor %d\n", host_arch, host_macro, host_functor);
  const bool ok = out[0] == 21 && out[1] == 1010 && out[2] == 900 && out[3] == 900 && out[4] == 11 &&
                  out[5] == 40 && out[6] == 105 && host_arch == -1 && host_macro == 0 && host_functor == 9;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  cudaFree(out);
  return ok ? 0 : 1;
}
