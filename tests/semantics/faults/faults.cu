// Hardware faults in kernels: a null pointer, a wild pointer, a stack
// overflow, an integer division by zero, and a C++ exception. Each stops its
// grid instead of the process: cudaErrorIllegalAddress (cudaErrorLaunchFailure
// for the division, which does not fault on a GPU, and the exception), a
// sticky error; after cudaDeviceReset the device stays unavailable
// (cudaErrorDevicesUnavailable), as CUDA 13 leaves it; the host's data is
// intact. cusim also reports the block, thread, source line and cause.
//   faults null|wild|overflow|divide|exception
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <cuda_runtime.h>

__global__ void writes_through(int* out, int* bad) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  if (blockIdx.x == 2 && threadIdx.x == 5) bad[threadIdx.x] = 42;
}

__device__ int recurse(volatile int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  return depth > 1000000 ? frame[0] : recurse(depth + 1) + frame[0];
}

__global__ void overflows(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 3) out[blockIdx.x * blockDim.x + threadIdx.x] = recurse(0);
}

__global__ void divides(int* out, volatile int divisor) {
  out[threadIdx.x] = 1;
  if (threadIdx.x == 7) out[threadIdx.x] = 100 / divisor;
}

__global__ void throws(int* out) {
  out[threadIdx.x] = 1;
#ifdef __CUSIM__  // device code has no exceptions in CUDA: nvcc refuses this
  if (threadIdx.x == 9) throw std::runtime_error("thrown in a kernel");
#endif
}

// Past the process's budget of guarded stacks (CUSIM_GUARDED_STACKS=2 in
// the parked_* cases), threads parked at a barrier have stacks without a
// guard page. Thread 40 descends `depth` frames of 4 KiB: without end (its
// frames run through the stacks below and fault at their reservation's
// guard page), or 24 (about 100 KiB: below its 64 KiB stack, in the 64 KiB
// gap under it, with 4 KiB or 64 KiB pages), then waits there or returns. Each stops the program:
//   faults parked_deep|parked_waits|parked_returns
__device__ int descend(int depth, bool wait_at_bottom) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  if (depth == 0) {
    if (wait_at_bottom) __syncthreads();
    return frame[0];
  }
  return descend(depth - 1, wait_at_bottom) + frame[0];
}

__global__ void overflows_parked(int* out, int depth, bool wait_at_bottom) {
  out[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 40) out[threadIdx.x] = descend(depth, wait_at_bottom);
  else if (wait_at_bottom) __syncthreads();
  __syncthreads();
}

// An index far past a large buffer (4 MiB, read 3 MiB past its end, as CUDA
// by Example's hash table reads its values array): a GPU stops the kernel
// with an illegal address; so does cusim, which names the buffer.
__global__ void reads_past_large(const int* buffer, int* out, int elements) {
  out[threadIdx.x] = buffer[elements + (3 << 20) / 4 + threadIdx.x];
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "null";
  int host_data[4] = {1, 2, 3, 4};
  int* out = nullptr;
  cudaMalloc(&out, 128 * sizeof(int));
  if (std::strcmp(what, "null") == 0) writes_through<<<4, 32>>>(out, nullptr);
  if (std::strcmp(what, "wild") == 0) writes_through<<<4, 32>>>(out, reinterpret_cast<int*>(0x7a0000000000ull));
  if (std::strcmp(what, "overflow") == 0) overflows<<<2, 32>>>(out);
  if (std::strcmp(what, "parked_deep") == 0) overflows_parked<<<1, 64>>>(out, 1000000, false);
  if (std::strcmp(what, "parked_waits") == 0) overflows_parked<<<1, 64>>>(out, 24, true);
  if (std::strcmp(what, "parked_returns") == 0) overflows_parked<<<1, 64>>>(out, 24, false);
  if (std::strcmp(what, "divide") == 0) divides<<<1, 32>>>(out, 0);
  if (std::strcmp(what, "past_large") == 0) {
    int* large = nullptr;
    cudaMalloc(&large, 4 << 20);
    reads_past_large<<<1, 32>>>(large, out, (4 << 20) / 4);
  }
  if (std::strcmp(what, "exception") == 0) throws<<<1, 32>>>(out);
  std::printf("%s: synchronise %s\n", what, cudaGetErrorName(cudaDeviceSynchronize()));
  int* more = nullptr;
  std::printf("then cudaMalloc %s\n", cudaGetErrorName(cudaMalloc(&more, 4)));
  std::printf("after cudaDeviceReset %s: ", cudaGetErrorName(cudaDeviceReset()));
  cudaMalloc(&out, 128 * sizeof(int));
  writes_through<<<1, 32>>>(out, out);
  int first = 0;
  const cudaError_t copied = cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("a launch %s, read back %d, host data %d %d %d %d\n", cudaGetErrorName(copied), first, host_data[0],
              host_data[1], host_data[2], host_data[3]);
  return 0;
}
