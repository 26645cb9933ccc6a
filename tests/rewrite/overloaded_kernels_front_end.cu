// Kernels overloaded with the same number of parameters, which the
// rewriter cannot tell from a declaration and a definition of one kernel:
// clang's front end names the kernels overloaded in a scope
// (tools/cusim-cc/front_end_marks.hpp), and the launch lets C++ pick the
// overload from the arguments, as nvcc does. So where a host function
// shares the kernel's name (Learn-CUDA-Programming's aos.cu): the rewrite
// without the marks, which the host compiler refuses there, is done again
// with them. nvcc 13 builds this file (nvcc.build.overloaded_kernels_front_end).
#include <cstdio>

__global__ void bump(int* p) { p[threadIdx.x] += 1; }
__global__ void bump(float* p) { p[threadIdx.x] += 0.5f; }

__global__ void once(int* p);  // declared, then defined: one kernel
__global__ void once(int* p) { p[threadIdx.x] += 10; }

struct cell { int v; };
__global__ void calc(cell* data) { data[threadIdx.x].v = threadIdx.x; }
int calc() {  // a host function of the kernel's name, which launches it
  cell* cells;
  cudaMallocManaged(&cells, 32 * sizeof(cell));
  calc<<<1, 32>>>(cells);
  cudaDeviceSynchronize();
  const int last = cells[31].v;
  cudaFree(cells);
  return last;
}

int main() {
  int* ints;
  float* floats;
  cudaMallocManaged(&ints, 32 * sizeof(int));
  cudaMallocManaged(&floats, 32 * sizeof(float));
  for (int i = 0; i < 32; ++i) ints[i] = 0, floats[i] = 0.0f;
  bump<<<1, 32>>>(ints);
  // CHECK: ::cusim::detail::launch_deduced("bump",
  bump<<<1, 32>>>(floats);
  once<<<1, 32>>>(ints);
  // CHECK: ::cusim::detail::launch_named("once", once, 1, 32).calling_by_name(
  cudaDeviceSynchronize();
  printf("%s: %d %.1f %d\n", cudaGetErrorName(cudaGetLastError()), ints[31], floats[31], calc());
  // OUTPUT: cudaSuccess: 11 0.5 31
}
