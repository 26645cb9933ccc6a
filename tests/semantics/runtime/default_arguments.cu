// Kernels with default arguments, as nvcc takes them: a <<<>>> launch may
// leave trailing parameters to their defaults (NVIDIA's shfl_scan sample
// does), for a plain kernel, a template in a namespace whose defaults name
// its template parameters and a namespace constant, and a template whose
// arguments are deduced; cudaLaunchKernel and cudaLaunchCooperativeKernel
// pass every argument of such a kernel, as they must. Each launch writes
// what its parameters held; the values are checked against nvcc's meaning.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace shapes {
constexpr int base = 100;
template <class T, int K = 2>
__global__ void fill(T* out, T value = T(7), int scale = K * base) {
  out[threadIdx.x] = value * scale + static_cast<T>(threadIdx.x);
}
}  // namespace shapes

__global__ void plain(int* out, int n = 32, bool twice = false) { out[threadIdx.x] = twice ? 2 * n : n; }

template <class T>
__global__ void deduced(T* out, T add = T(3)) {
  out[threadIdx.x] = static_cast<T>(threadIdx.x) + add;
}

__global__ void synced(int* out, int rounds = 4) {
  cooperative_groups::this_grid().sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = rounds;
}

int main() {
  int* d = nullptr;
  cudaMallocManaged(&d, 64 * sizeof(int));
  float* f = nullptr;
  cudaMallocManaged(&f, 4 * sizeof(float));
  plain<<<1, 4>>>(d);
  plain<<<1, 4>>>(d + 4, 5);
  plain<<<1, 4>>>(d + 8, 5, true);
  shapes::fill<int><<<1, 4>>>(d + 12);
  shapes::fill<int, 3><<<1, 4>>>(d + 16, 1);
  deduced<<<1, 4>>>(d + 20);
  deduced<<<1, 4>>>(f);
  int* at = d + 24;
  int n = 9;
  bool twice = true;
  void* plain_args[] = {&at, &n, &twice};
  const cudaError_t by_api = cudaLaunchKernel(reinterpret_cast<void*>(plain), dim3(1), dim3(4), plain_args, 0, nullptr);
  int* synced_at = d + 28;
  int rounds = 6;
  void* synced_args[] = {&synced_at, &rounds};
  const cudaError_t cooperative =
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(synced), dim3(2), dim3(4), synced_args, 0, nullptr);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("launches %s %s %s\n", cudaGetErrorName(by_api), cudaGetErrorName(cooperative), cudaGetErrorName(done));
  std::printf("plain %d %d %d, fill %d %d, deduced %d %.1f, cudaLaunchKernel %d, cooperative %d %d\n", d[0], d[4],
              d[8], d[13], d[16], d[21], static_cast<double>(f[2]), d[24], d[28], d[35]);
  const bool passed = done == cudaSuccess && by_api == cudaSuccess && cooperative == cudaSuccess && d[0] == 32 &&
                      d[4] == 5 && d[8] == 10 && d[13] == 1401 && d[16] == 300 && d[21] == 4 && f[2] == 5.0f &&
                      d[24] == 18 && d[28] == 6 && d[35] == 6;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
