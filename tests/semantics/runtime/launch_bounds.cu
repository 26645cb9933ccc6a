// __launch_bounds__: a kernel compiled for at most N threads per block
// refuses a launch of more (cudaErrorInvalidValue), and says so in its
// attributes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(128, 2) bounded(int* out) { out[threadIdx.x] = int(threadIdx.x); }
__global__ void unbounded(int* out) { out[threadIdx.x] = 1; }

int main() {
  int* out;
  cudaMalloc(&out, 1024 * sizeof(int));
  bool ok = true;
  bounded<<<1, 128>>>(out);
  const cudaError_t within = cudaGetLastError();
  bounded<<<1, 256>>>(out);
  const cudaError_t beyond = cudaGetLastError();
  unbounded<<<1, 256>>>(out);
  const cudaError_t other = cudaGetLastError();
  std::printf("128 threads: %s; 256 threads: %s; 256 threads of a kernel without bounds: %s\n",
              cudaGetErrorName(within), cudaGetErrorName(beyond), cudaGetErrorName(other));
  ok &= within == cudaSuccess && beyond == cudaErrorInvalidValue && other == cudaSuccess;
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, bounded);
  std::printf("maxThreadsPerBlock of the bounded kernel: %d\n", attributes.maxThreadsPerBlock);
  ok &= attributes.maxThreadsPerBlock == 128;
  ok &= cudaDeviceSynchronize() == cudaSuccess;
  std::printf("launch bounds: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
