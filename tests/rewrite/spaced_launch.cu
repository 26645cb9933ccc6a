// The launch Visual Studio's formatter makes of `k<<<g, b>>>(args)`:
// `k << < g, b >> > (args)` (Learn-CUDA-Programming's sgemm.cu), which nvcc
// takes, beside an `operator<< <>` that is not a launch. clang reads the
// spaced form as shifts, so this file has no kernel facts: the other
// shapes are in tricky_shapes.cu, which clang parses. nvcc 13 builds this
// file (nvcc.build.spaced_launch).
#include <cstdio>

template <class T> struct boxed;
template <class T> int operator<<(int shift, const boxed<T>& b);
template <class T> struct boxed {
  T v;
  friend int operator<< <>(int shift, const boxed<T>& b);
};
template <class T> int operator<<(int shift, const boxed<T>& b) { return int(b.v) << shift; }

__global__ void add(int* p, int n) { p[threadIdx.x] += n; }
template <int N> __global__ void set(int* p) { p[threadIdx.x] = N + (threadIdx.x >> 1); }
constexpr int big = 5;

int main() {
  int* d;
  cudaMallocManaged(&d, 32 * sizeof(int));
  set<3> << < 1, 32 >> > (d);
  // CHECK: ::cusim::detail::launch_deduced("set",
  add << < 1, 32 >> > (d, 100);
  // CHECK: ::cusim::detail::launch_named("add", add, 1, 32 )
  set<(big >> 1)> << < big >> 2, 32 >>>(d + 0);
  cudaDeviceSynchronize();
  printf("spaced %d %d %d\n", d[0], d[31], 2 << boxed<int>{d[1]});
  // OUTPUT: spaced 2 17 8
}
