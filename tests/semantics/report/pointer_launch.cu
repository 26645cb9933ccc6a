// Kernels launched through a pointer: reports name the kernel the pointer
// holds, not the pointer (`fp`, `table[i]`, the parameter `k` of a
// library's launcher, as Thrust's and CUB's launch theirs), and a launch
// that names the kernel keeps the name as written (`tools::fill`).
#include <cstdio>

namespace tools {
__global__ void fill(int* p) { p[threadIdx.x] = 1; }
}  // namespace tools
__global__ void scale(int* p) { p[threadIdx.x] *= 3; }
__global__ void shift(int* p) { p[threadIdx.x] += 2; }

template <class K>
void launch_through_parameter(K k, int* p) {
  k<<<1, 32>>>(p);
}

int main() {
  int* p;
  cudaMallocManaged(&p, 32 * sizeof(int));
  tools::fill<<<1, 32>>>(p);
  void (*fp)(int*) = scale;
  fp<<<1, 32>>>(p);
  void (*table[])(int*) = {scale, shift};
  table[1]<<<1, 32>>>(p);
  launch_through_parameter(shift, p);
  cudaDeviceSynchronize();
  std::printf("p[5] = %d\n", p[5]);  // (1 * 3 + 2) + 2
  return 0;
}
