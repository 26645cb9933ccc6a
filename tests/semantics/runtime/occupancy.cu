// The occupancy API's answers for kernels of different register and shared
// memory needs, at many block sizes. Its output on an H100 is the golden
// (tests/data/h100-runtime-occupancy.txt); cusim is run with the register
// counts that GPU reported (CUSIM_REGISTERS), so every other rule is compared.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void light(float* data) { data[threadIdx.x] += 1.0f; }

// Many values live at once: many registers.
__global__ void heavy(const float* in, float* out) {
  float acc[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) acc[i] = in[threadIdx.x + i * 32];
#pragma unroll
  for (int round = 0; round < 4; ++round) {
#pragma unroll
    for (int i = 0; i < 48; ++i) acc[i] = acc[i] * acc[(i + 7) % 48] + acc[(i + 13) % 48];
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 48; ++i) sum += acc[i] * float(i);
  out[threadIdx.x] = sum;
}

__global__ void tiled(float* data) {
  __shared__ float tile[2048];  // 8 KiB of static shared memory
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void opted_in(float* data) {
  extern __shared__ float dynamic[];
  dynamic[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = dynamic[blockDim.x - 1 - threadIdx.x];
}

size_t eight_bytes_a_thread(int block_size) { return size_t(block_size) * 8; }

template <class Kernel>
void report(const char* name, Kernel kernel, float* data) {
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, kernel);
  std::printf("%s: %d registers, %zu static shared, max threads %d, max dynamic shared %d\n", name,
              attributes.numRegs, attributes.sharedSizeBytes, attributes.maxThreadsPerBlock,
              attributes.maxDynamicSharedSizeBytes);
  const int sizes[] = {1, 32, 33, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024};
  const size_t shared[] = {0, 1000, 8192, 20000, 48 * 1024, 100000};
  for (size_t bytes : shared) {
    std::printf("  %6zu B:", bytes);
    for (int size : sizes) {
      int blocks = -1;
      const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, size, bytes);
      if (e != cudaSuccess) std::printf(" %s", cudaGetErrorName(e)), cudaGetLastError();
      else std::printf(" %d", blocks);
    }
    std::printf("\n");
  }
  int grid = 0, block = 0;
  cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel);
  std::printf("  potential block size: %s grid %d block %d\n", cudaGetErrorName(e), grid, block);
  e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel, 30000, 500);
  std::printf("  with 30000 B, at most 500: %s grid %d block %d\n", cudaGetErrorName(e), grid, block);
  e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, kernel, eight_bytes_a_thread);
  std::printf("  8 B a thread: %s grid %d block %d\n", cudaGetErrorName(e), grid, block);
  for (int count : {1, 2, 3, 4, 8, 16, 32}) {
    for (int size : {128, 1024}) {
      size_t available = 0;
      e = cudaOccupancyAvailableDynamicSMemPerBlock(&available, kernel, count, size);
      std::printf("  available for %d blocks of %d: %s %zu\n", count, size, cudaGetErrorName(e), available);
      cudaGetLastError();
    }
  }
  for (int size : {256, 512, 1024}) {
    kernel<<<1, size, size * sizeof(float)>>>(data);
    std::printf("  launch of %d threads: %s\n", size, cudaGetErrorName(cudaGetLastError()));
  }
}

int main() {
  float* data;
  cudaMalloc(&data, 64 * 1024 * sizeof(float));
  cudaMemset(data, 0, 64 * 1024 * sizeof(float));
  // cusim learns a kernel's static shared memory when its blocks run.
  light<<<1, 32>>>(data);
  heavy<<<1, 32>>>(data, data + 32 * 1024);
  tiled<<<1, 32>>>(data);
  cudaFuncSetAttribute(opted_in, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
  opted_in<<<1, 32, 160 * 1024>>>(data);
  std::printf("first launches: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  report("light", light, data);
  report("tiled", tiled, data);
  report("opted_in", opted_in, data);

  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, heavy);
  std::printf("heavy: %d registers\n", attributes.numRegs);
  const int sizes[] = {32, 64, 128, 256, 384, 512, 768, 1024};
  std::printf("  0 B:");
  for (int size : sizes) {
    int blocks = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, heavy, size, 0);
    std::printf(" %d", blocks);
  }
  std::printf("\n");
  int grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, heavy);
  std::printf("  potential block size: grid %d block %d\n", grid, block);
  for (int size : {256, 512, 1024}) {
    heavy<<<1, size>>>(data, data + 32 * 1024);
    std::printf("  launch of %d threads: %s\n", size, cudaGetErrorName(cudaGetLastError()));
  }
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(data);
  return 0;
}
