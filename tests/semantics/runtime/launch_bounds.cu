// __launch_bounds__: a kernel compiled for at most N threads per block
// refuses a launch of more (cudaErrorInvalidValue), and says so in its
// attributes; so does each instance of a kernel template whose bounds
// name its template parameter.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(128, 2) bounded(int* out) { out[threadIdx.x] = int(threadIdx.x); }
__global__ void unbounded(int* out) { out[threadIdx.x] = 1; }
template <int Threads>
__global__ void __launch_bounds__(Threads) bounded_template(int* out) { out[threadIdx.x] = Threads; }

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

  bounded_template<64><<<1, 64>>>(out);
  const cudaError_t template_within = cudaGetLastError();
  bounded_template<64><<<1, 128>>>(out);
  const cudaError_t template_beyond = cudaGetLastError();
  bounded_template<256><<<1, 128>>>(out);
  const cudaError_t other_instance = cudaGetLastError();
  std::printf("template <64>: 64 threads: %s; 128 threads: %s; template <256>, 128 threads: %s\n",
              cudaGetErrorName(template_within), cudaGetErrorName(template_beyond), cudaGetErrorName(other_instance));
  ok &= template_within == cudaSuccess && template_beyond == cudaErrorInvalidValue && other_instance == cudaSuccess;
  cudaFuncGetAttributes(&attributes, bounded_template<64>);
  std::printf("maxThreadsPerBlock of bounded_template<64>: %d\n", attributes.maxThreadsPerBlock);
  ok &= attributes.maxThreadsPerBlock == 64;
  ok &= cudaDeviceSynchronize() == cudaSuccess;
  std::printf("launch bounds: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
