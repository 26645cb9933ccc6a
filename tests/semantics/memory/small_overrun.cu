// A kernel writes 2 KiB past the end of a 2 KiB cudaMalloc buffer (the bug
// in Learn-CUDA-Programming's scan_v2, which its pack_n_split runs). On a
// GPU the write lands in device memory and the program runs on; cusim's
// small device buffers come from regions of their own
// (src/memory/small_buffers.hpp), so it lands there too, never in the
// runtime's own data on the host heap (there, the next launch crashed with
// no report). The streams and events made between the allocations keep
// working. cusim-cc --check=memory reports the write instead.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void write_past_end(float* out, int n) { out[threadIdx.x + n] = 1.0f; }

int main() {
  const int n = 512;
  float *first, *second;
  cudaEvent_t start, stop;
  cudaStream_t stream;
  cudaMalloc(&first, n * sizeof(float));
  cudaEventCreate(&start);
  cudaStreamCreate(&stream);
  cudaMalloc(&second, n * sizeof(float));
  cudaEventCreate(&stop);
  for (int round = 0; round < 3; ++round) {
    cudaEventRecord(start, stream);
    write_past_end<<<1, n, 0, stream>>>(first, n);
    write_past_end<<<1, n, 0, stream>>>(second, n);
    cudaEventRecord(stop, stream);
    std::printf("round %d: %s\n", round, cudaGetErrorString(cudaStreamSynchronize(stream)));
  }
  float elapsed = 0;
  std::printf("events: %s\n", cudaGetErrorString(cudaEventElapsedTime(&elapsed, start, stop)));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  std::printf("free: %s %s\n", cudaGetErrorString(cudaFree(first)), cudaGetErrorString(cudaFree(second)));
  return 0;
}
