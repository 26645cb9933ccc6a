// Kernels launched through expressions rather than names: a function
// pointer, an array of them, a member of a struct, a parenthesized pointer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(int* p) { atomicAdd(p, 1); }
__global__ void add_ten(int* p) { atomicAdd(p, 10); }
template <class T, int N>
__global__ void add_n(T* p) { atomicAdd(p, T(N)); }
constexpr int big = 5;

struct kernel_table {
  void (*first)(int*);
  void (*all[2])(int*);
};

int main() {
  int* count;
  cudaMallocManaged(&count, sizeof(int));
  *count = 0;
  void (*pointer)(int*) = add_one;
  kernel_table table{add_ten, {add_one, add_ten}};
  kernel_table* through = &table;

  pointer<<<1, 1>>>(count);
  // CHECK: launch_named("pointer", pointer, 1, 1)(count);
  (*pointer)<<<1, 2>>>(count);
  // CHECK: launch_named("(*pointer)", (*pointer), 1, 2)(count);
  table.first<<<1, 1>>>(count);
  // CHECK: launch_named("table.first", table.first, 1, 1)(count);
  through->all[1]<<<1, 2>>>(count);
  // CHECK: launch_named("through->all[1]", through->all[1], 1, 2)(count);
  // Template arguments holding '>' and '<' inside parentheses.
  add_n<int, (big > 2 ? 100 : 1)><<<1, 1>>>(count);
  // CHECK: launch_deduced("add_n", []<class... __cusim_A, class... __cusim_R>(::cusim::detail::kernel_signature<__cusim_A...>, ::cusim::detail::kernel_signature<__cusim_R...>) { if constexpr (requires { static_cast<void (*)(__cusim_A...)>(add_n<int, (big > 2 ? 100 : 1)>); })
  // CHECK: }, 1, 1).calling_by_name([](auto&&... __cusim_arguments) { (add_n<int, (big > 2 ? 100 : 1)>)(__cusim_arguments...); })(count);
  add_n<int, (big < 2 ? 1 : 1000)><<<1, 1>>>(count);
  cudaDeviceSynchronize();
  std::printf("count %d\n", *count);
  // OUTPUT: count 1133
  return 0;
}
