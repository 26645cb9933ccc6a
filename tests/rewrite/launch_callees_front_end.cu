// Launches whose kernel expression is a call, which the rewriter alone
// cannot read back from `<<<` (it would take the argument list for a
// parenthesized callee): clang's front end gives each launch's callee
// (tools/cusim-cc/front_end_marks.hpp). nvcc 13 builds this file
// (nvcc.build.launch_callees_front_end).
#include <cstdio>
#include <tuple>

__global__ void add_one(int* p) { p[threadIdx.x] += 1; }
__global__ void add_ten(int* p) { p[threadIdx.x] += 10; }
using kernel_pointer = void (*)(int*);
kernel_pointer pick(int i) { return i != 0 ? add_ten : add_one; }

int main() {
  int* d;
  cudaMallocManaged(&d, 32 * sizeof(int));
  for (int i = 0; i < 32; ++i) d[i] = 0;
  pick(1)<<<1, 32>>>(d);
  // CHECK: ::cusim::detail::launch_named("pick(1)", pick(1), 1, 32)(d);
  std::tuple<kernel_pointer, kernel_pointer> kernels{add_one, add_ten};
  std::get<1>(kernels)<<<1, 32>>>(d);
  // CHECK: ::cusim::detail::launch_named("std::get<1>(kernels)", std::get<1>(kernels), 1, 32)(d);
  static_cast<kernel_pointer>(add_one)<<<1, 32>>>(d);
  // CHECK: launch_named("static_cast<kernel_pointer>(add_one)", static_cast<kernel_pointer>(add_one), 1, 32)(d);
  [] { return add_one; }()<<<1, 32>>>(d);
  // CHECK: launch_named("[] { return add_one; }()", [] { return add_one; }(), 1, 32)(d);
  cudaDeviceSynchronize();
  printf("%s: %d\n", cudaGetErrorName(cudaGetLastError()), d[31]);
  // OUTPUT: cudaSuccess: 22
}
