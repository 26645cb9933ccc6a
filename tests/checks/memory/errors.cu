// Memory errors planted in small kernels, each of which cusim-cc
// --check=memory reports with the CUDA thread, the source line and what the
// bad address is; the clean case touches everything it may and nothing more.
//   memory_errors <case>   where case is one of the names in main()
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

constexpr int n = 100;

// The last thread writes one element past a 100-int cudaMalloc'd buffer.
__global__ void past_global(int* out) { out[threadIdx.x + 1] = 1; }

// Thread 63 writes one past a 64-int __shared__ array.
__global__ void past_shared(int* out) {
  __shared__ int tile[64];
  tile[threadIdx.x + 1] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// Thread 31 reads one past the 32 floats of dynamic shared memory.
__global__ void past_dynamic_shared(float* out) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buffer[threadIdx.x + 1];
}

// Reads a buffer the host freed before the launch.
__global__ void after_free(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x]; }

// Writes past a 16-byte device-heap allocation.
__global__ void past_heap() {
  int* p = static_cast<int*>(malloc(4 * sizeof(int)));
  p[threadIdx.x] = 1;
  free(p);
}

// Reads a device-heap block after freeing it.
__global__ void heap_after_free(int* out) {
  int* p = static_cast<int*>(malloc(sizeof(int)));
  *p = 7;
  free(p);
  out[threadIdx.x] = *p;
}

// Thread 8 writes past a local array of 8.
__global__ void past_local(int* out) {
  int local[8];
  for (int i = 0; i < 8; ++i) local[i] = i;
  local[threadIdx.x] = -1;
  out[threadIdx.x] = local[threadIdx.x / 2];
}

// One past a __device__ array.
__device__ int table[16];
__global__ void past_device_array(int* out) { out[threadIdx.x] = table[threadIdx.x + 1]; }

// Everything in bounds.
__global__ void in_bounds(int* out) {
  __shared__ int tile[64];
  extern __shared__ float buffer[];
  tile[threadIdx.x] = threadIdx.x;
  buffer[threadIdx.x] = 1.0f;
  __syncthreads();
  int* p = static_cast<int*>(malloc(sizeof(int)));
  *p = tile[63 - threadIdx.x] + static_cast<int>(buffer[threadIdx.x]);
  out[threadIdx.x] = *p + table[threadIdx.x % 16];
  free(p);
}

// One past a cudaMalloc'd buffer, stored by inline PTX (the runtime's
// interpreter makes the access, checked as the kernel's own).
__global__ void past_global_ptx(int* out) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(out + threadIdx.x + 1), "r"(1u));
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* out;
  cudaMalloc(&out, n * sizeof(int));
  cudaError_t freed = cudaSuccess;
  if (!std::strcmp(which, "global")) past_global<<<1, n>>>(out);
  else if (!std::strcmp(which, "shared")) past_shared<<<1, 64>>>(out);
  else if (!std::strcmp(which, "dynamic-shared")) past_dynamic_shared<<<1, 32, 32 * sizeof(float)>>>((float*)out);
  else if (!std::strcmp(which, "heap")) past_heap<<<1, 5>>>();
  else if (!std::strcmp(which, "heap-after-free")) heap_after_free<<<1, 1>>>(out);
  else if (!std::strcmp(which, "local")) past_local<<<1, 9>>>(out);
  else if (!std::strcmp(which, "device-array")) past_device_array<<<1, 16>>>(out);
  else if (!std::strcmp(which, "clean")) in_bounds<<<2, 64, 64 * sizeof(float)>>>(out);
  else if (!std::strcmp(which, "ptx")) past_global_ptx<<<1, n>>>(out);
  else if (!std::strcmp(which, "after-free")) {
    int* in;
    cudaMalloc(&in, n * sizeof(int));
    cudaFree(in);
    after_free<<<1, 32>>>(in, out);
  } else if (!std::strcmp(which, "double-free")) {
    int* in;
    cudaMalloc(&in, n * sizeof(int));
    cudaFree(in);
    freed = cudaFree(in);
  } else {
    return 2;
  }
  std::printf("%s: %s %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()), cudaGetErrorName(freed));
  return 0;
}
