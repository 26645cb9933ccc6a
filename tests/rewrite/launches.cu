// Every shape of kernel launch cusim-cc rewrites, and text that only looks
// like one. A comment with a launch in it: k<<<1, 1>>>(p);
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

// atomicAdd: the macro launch below runs two blocks over the same elements.
__global__ void k(int* p) { atomicAdd(&p[threadIdx.x], 1); }
__global__ void none() {}
template <class T, int N>
__global__ void scaled(T* p) { p[threadIdx.x] *= N; }
template <class T>
__global__ void deduced(T* p, T by, int n) { if (int(threadIdx.x) < n) p[threadIdx.x] += by; }
namespace math {
__global__ void twice(int* p) { p[threadIdx.x] *= 2; }
}
// A macro that expands to a launch, as CUDA samples write them.
#define LAUNCH_OVER(kernel, n, ...) kernel<<<((n) + 31) / 32, 32>>>(__VA_ARGS__)

int checked(int x) { return x; }

int main() {
  int* p = nullptr;
  cudaMallocManaged(&p, 64 * sizeof(int));
  for (int i = 0; i < 64; ++i) p[i] = 0;
  cudaStream_t stream = 0;

  k<<<1, 64>>>(p);
  // CHECK: ::cusim::detail::launch_named("k", k, 1, 64).calling_by_name([](auto&&... __cusim_arguments) { (k)(__cusim_arguments...); })(p);
  k<<<dim3(1, 1), dim3(64), 0>>>(p);
  // CHECK: launch_named("k", k, dim3(1, 1), dim3(64), 0).calling_by_name([](auto&&... __cusim_arguments) { (k)(__cusim_arguments...); })(p);
  k<<<1, 64, 0, stream>>>(p);
  // CHECK: launch_named("k", k, 1, 64, 0, stream).calling_by_name([](auto&&... __cusim_arguments) { (k)(__cusim_arguments...); })(p);
  k <<< checked((64 + 63) / 64), std::vector<int>{64, 1}.front() >>> (p);
  // CHECK: launch_named("k", k, checked((64 + 63) / 64), std::vector<int>{64, 1}.front() ).calling_by_name([](auto&&... __cusim_arguments) { (k)(__cusim_arguments...); }) (p);
  scaled<int, 3><<<1, 64>>>(p);
  // CHECK: launch_deduced("scaled", []<class... __cusim_A, class... __cusim_R>(::cusim::detail::kernel_signature<__cusim_A...>, ::cusim::detail::kernel_signature<__cusim_R...>) { if constexpr (requires { static_cast<void (*)(__cusim_A...)>(scaled<int, 3>); })
  // CHECK: else if constexpr (requires { ::cusim::detail::unique_function<__cusim_A...>(scaled<int, 3>); }) return ::cusim::detail::unique_function<__cusim_A...>(scaled<int, 3>);
  // CHECK: }, 1, 64).calling_by_name([](auto&&... __cusim_arguments) { (scaled<int, 3>)(__cusim_arguments...); })(p);
  math::twice<<<1, 64>>>(p);
  // CHECK: launch_named("math::twice", math::twice, 1, 64).calling_by_name([](auto&&... __cusim_arguments) { (math::twice)(__cusim_arguments...); })(p);
  ::math::twice<<<1, 64>>>(p);
  // CHECK: launch_named("::math::twice", ::math::twice, 1, 64).calling_by_name([](auto&&... __cusim_arguments) { (::math::twice)(__cusim_arguments...); })(p);
  deduced<<<1, 64>>>(p, 1, 64);
  // CHECK: launch_deduced("deduced", []<class... __cusim_A, class... __cusim_R>(::cusim::detail::kernel_signature<__cusim_A...>, ::cusim::detail::kernel_signature<__cusim_R...>)
  // CHECK: return +[](__cusim_A... __cusim_a) { deduced(__cusim_a...); }; }, 1, 64).calling_by_name([](auto&&... __cusim_arguments) { (deduced)(__cusim_arguments...); })(p, 1, 64);
  deduced<<<1, 64>>>(p, 1, static_cast<unsigned char>(64));  // arguments converted at the call
  LAUNCH_OVER(k, 64, p);
  // CHECK: launch_named("k", k, ((64) + 31) / 32, 32).calling_by_name([](auto&&... __cusim_arguments) { (k)(__cusim_arguments...); })(p);
  none<<<1,
         1>>>();
  k
      <<<1, 64>>>(p);
  // Strings, characters and raw strings are not launches.
  const char* text = "k<<<1, 1>>>(p);";
  const char* raw = R"x(k<<<1, 1>>>(p); )" )x";
  const char less = '<';
  std::vector<std::vector<std::vector<int>>> nested;
  // CHECK: "k<<<1, 1>>>(p);"
  // CHECK: R"x(k<<<1, 1>>>(p); )" )x"
  // CHECK: std::vector<std::vector<std::vector<int>>> nested;
  // CHECK-NOT: __cusim_global__
  cudaDeviceSynchronize();
  std::printf("%d %d %s %zu %c line %d\n", p[0], p[63], cudaGetErrorName(cudaGetLastError()), std::strlen(text) + std::strlen(raw), less, __LINE__);
  // 52 on p[0]: the macro launch runs 2 blocks of 32 threads over p[0..31], twice; p[63] misses it.
  // OUTPUT: 53 51 cudaSuccess 34 < line 65
  cudaFree(p);
  return 0;
}
