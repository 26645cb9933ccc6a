// A synchronous cudaMemcpy after a kernel that faulted returns the fault's
// error, as on a GPU (the copy waits for the kernel): a program that checks
// only its copies learns of the fault there, not from wrong data.
#include <cstdio>

__global__ void stops(int* p) {
  if (threadIdx.x == 0) __trap();
  p[threadIdx.x] = 1;
}

int main() {
  int host[32] = {};
  int* device;
  cudaMalloc(&device, sizeof host);
  stops<<<1, 32>>>(device);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t copy = cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  const cudaError_t then = cudaDeviceSynchronize();
  std::printf("launch %s\ncudaMemcpy %s\ncudaDeviceSynchronize %s\n", cudaGetErrorName(launch), cudaGetErrorName(copy),
              cudaGetErrorName(then));
  const bool ok = launch == cudaSuccess && copy == cudaErrorLaunchFailure && then == cudaErrorLaunchFailure;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return 0;
}
