// Dynamic-parallelism mistakes a GPU does not report well, which cusim
// reports with the kernel, block, thread and source line. The case is the
// first argument.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void child(int* p) { *p += 1; }

__global__ void passes_shared() {
  __shared__ int counter;
  counter = 0;
  child<<<1, 1>>>(&counter);
}

__global__ void passes_local() {
  int on_the_stack = 0;
  child<<<1, 1>>>(&on_the_stack);
}

// Block 0 creates a stream and leaves its handle in global memory; block 1
// (run after it on one worker) launches into it.
__global__ void shares_a_stream(cudaStream_t* handle, int* data) {
  if (blockIdx.x == 0) {
    cudaStreamCreateWithFlags(handle, cudaStreamNonBlocking);
  } else if (*handle != nullptr) {
    child<<<1, 1, 0, *handle>>>(data);
  }
}

__global__ void uses_host_stream(cudaStream_t stream, int* data) { child<<<1, 1, 0, stream>>>(data); }

__global__ void frees_host_memory(int* data) { cudaFree(data); }

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* data;
  cudaMallocManaged(&data, sizeof(int));
  if (std::strcmp(which, "shared") == 0) passes_shared<<<1, 1>>>();
  if (std::strcmp(which, "local") == 0) passes_local<<<1, 1>>>();
  if (std::strcmp(which, "stream") == 0) {
    cudaStream_t* handle;
    cudaMallocManaged(&handle, sizeof(cudaStream_t));
    *handle = nullptr;
    shares_a_stream<<<2, 1>>>(handle, data);
  }
  if (std::strcmp(which, "host_stream") == 0) {
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    uses_host_stream<<<1, 1>>>(stream, data);
  }
  if (std::strcmp(which, "device_free") == 0) frees_host_memory<<<1, 1>>>(data);
  std::printf("%s: %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
