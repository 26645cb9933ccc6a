// CUDA calls whose errors the program never looks at, as compute-sanitizer
// reports them ("Program hit cudaErrorInvalidValue on CUDA API call to
// ..."): a checking build of cusim (cusim-cc --check=...) names each with the
// program's line, and the program runs on as it would without the check.
// Any build says at exit that a <<<>>> launch failed and the program never
// asked (launch); one that asks (asked) hears nothing of it. The clean case
// makes the same calls correctly and must hear nothing.
//   ignored_errors <case>   where case is one of the names in main()
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  const bool clean = std::strcmp(which, "clean") == 0;
  int* device = nullptr;
  cudaMalloc(&device, 256 * sizeof(int));
  int host[256] = {};
  if (clean || std::strcmp(which, "launch") == 0) {
    const int threads = clean ? 256 : 2048;  // over the block limit: the launch fails
    fill<<<1, threads>>>(device, 7);
    cudaDeviceSynchronize();  // succeeds either way: the launch's error is cudaGetLastError's
  }
  if (std::strcmp(which, "asked") == 0) {
    fill<<<1, 2048>>>(device, 7);
    std::printf("asked: %s\n", cudaGetErrorName(cudaGetLastError()));
  }
  if (clean || std::strcmp(which, "copy") == 0) {
    const size_t bytes = clean ? sizeof host : 2 * sizeof host;  // past the allocation's end
    cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost);
  }
  std::printf("%s: ran on, host[0] = %d\n", which, host[0]);
  cudaFree(device);
  return 0;
}
