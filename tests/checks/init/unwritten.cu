// Reads of device memory for cusim-cc --check=init, one case per argv[1]:
// each "unwritten" case reads memory nothing wrote and is reported with
// its kernel, thread and line; each "written" case fills the memory first
// (a copy, a memset, a kernel, a device-side copy) and reports nothing.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

constexpr int n = 256;

__global__ void count_positive(const int* in, int* count) {
  if (in[threadIdx.x] > 0) atomicAdd(count, 1);
}

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }

// Bins nobody zeroed: each atomicAdd reads what was there.
__global__ void histogram(const int* in, int* bins) { atomicAdd(&bins[in[threadIdx.x] % 8], 1); }

// One thread copies with the C library's memcpy: it writes what it copies to.
__global__ void copy_with_memcpy(const int* from, int* to) {
  if (threadIdx.x == 0) memcpy(to, from, n * sizeof(int));
}

__global__ void copy_on_device(const int* from, int* to) {
  if (threadIdx.x == 0) cudaMemcpyAsync(to, from, n * sizeof(int), cudaMemcpyDeviceToDevice);
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  std::vector<int> host(n, 1);
  int* in = nullptr;
  int* count = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  if (std::strcmp(which, "unwritten") == 0) {
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "half-copied") == 0) {
    // Only the first half is copied in: the second half's threads read what nothing wrote.
    cudaMemcpy(in, host.data(), n / 2 * sizeof(int), cudaMemcpyHostToDevice);
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "histogram") == 0) {
    int* bins = nullptr;
    cudaMalloc(&bins, 8 * sizeof(int));
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    histogram<<<1, n>>>(in, bins);
  } else if (std::strcmp(which, "copied") == 0) {
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "memset") == 0) {
    cudaMemset(in, 0, n * sizeof(int));
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "kernel-written") == 0) {
    fill<<<1, n>>>(in, 3);
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "device-copy") == 0) {
    int* staged = nullptr;
    cudaMalloc(&staged, n * sizeof(int));
    fill<<<1, n>>>(staged, 5);
    copy_on_device<<<1, 1>>>(staged, in);
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "copied-back-unwritten") == 0) {
    // The kernel writes half of the buffer; the copy back reads all of it.
    fill<<<1, n / 2>>>(in, 3);
    cudaMemcpy(host.data(), in, n * sizeof(int), cudaMemcpyDeviceToHost);
  } else if (std::strcmp(which, "kernel-memcpy") == 0) {
    int* staged = nullptr;
    cudaMalloc(&staged, n * sizeof(int));
    cudaMemset(staged, 0, n * sizeof(int));
    copy_with_memcpy<<<1, 1>>>(staged, in);
    count_positive<<<1, n>>>(in, count);
  } else if (std::strcmp(which, "freed-and-reused") == 0) {
    // Freed after being written, then a new allocation: its bytes are new.
    cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaFree(in);
    cudaMalloc(&in, n * sizeof(int));
    count_positive<<<1, n>>>(in, count);
  } else {
    std::printf("usage: unwritten unwritten|half-copied|histogram|copied-back-unwritten|freed-and-reused|copied|memset|kernel-written|kernel-memcpy|device-copy\n");
    return 2;
  }
  int result = -1;
  cudaMemcpy(&result, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%s: %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
