// Stream-ordered allocation and memory pools: the default and current pool,
// a pool of the program's own, usage attributes and their high-water marks,
// and the errors of bad calls. Its output on an H100 is the golden
// (tests/data/h100-memory-pools.txt).
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* data, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

#define SHOW(call) std::printf("%s: %s\n", #call, cudaGetErrorName(call))

std::uint64_t attribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  std::uint64_t value = 0;
  cudaMemPoolGetAttribute(pool, attr, &value);
  return value;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemPool_t default_pool, current;
  SHOW(cudaDeviceGetDefaultMemPool(&default_pool, 0));
  SHOW(cudaDeviceGetMemPool(&current, 0));
  std::printf("the current pool is the default one: %d\n", current == default_pool);
  SHOW(cudaDeviceGetDefaultMemPool(&default_pool, 5));
  cudaGetLastError();

  const int n = 1 << 20;
  int* data = nullptr;
  SHOW(cudaMallocAsync(&data, n * sizeof(int), stream));
  fill<<<n / 256, 256, 0, stream>>>(data, n, 7);
  int last = 0;
  cudaMemcpyAsync(&last, data + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream);
  SHOW(cudaFreeAsync(data, stream));
  SHOW(cudaStreamSynchronize(stream));
  std::printf("value written through the async allocation: %d\n", last);
  std::printf("default pool used high-water mark covers it: %d\n",
              attribute(default_pool, cudaMemPoolAttrUsedMemHigh) >= n * sizeof(int));
  std::printf("default pool in use after the free: %llu\n",
              (unsigned long long)attribute(default_pool, cudaMemPoolAttrUsedMemCurrent));

  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  SHOW(cudaMemPoolCreate(&pool, &props));
  std::uint64_t threshold = 64 << 20;
  SHOW(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  std::printf("release threshold: %llu\n", (unsigned long long)attribute(pool, cudaMemPoolAttrReleaseThreshold));
  int* a = nullptr;
  int* b = nullptr;
  SHOW(cudaMallocFromPoolAsync(&a, 1 << 20, pool, stream));
  SHOW(cudaMallocAsync(&b, 3 << 20, pool, stream));
  SHOW(cudaStreamSynchronize(stream));
  std::printf("pool in use: %llu\n", (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  SHOW(cudaFreeAsync(a, stream));
  SHOW(cudaStreamSynchronize(stream));
  std::printf("pool in use after one free: %llu, high-water mark %llu\n",
              (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemCurrent),
              (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemHigh));
  std::uint64_t zero = 0, one = 1;
  SHOW(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  std::printf("high-water mark after a reset: %llu\n",
              (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemHigh));
  SHOW(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one));
  cudaGetLastError();
  SHOW(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero));
  cudaGetLastError();

  SHOW(cudaDeviceSetMemPool(0, pool));
  SHOW(cudaDeviceGetMemPool(&current, 0));
  std::printf("the current pool is the new one: %d\n", current == pool);
  SHOW(cudaMemPoolTrimTo(pool, 0));
  SHOW(cudaFreeAsync(b, stream));
  SHOW(cudaStreamSynchronize(stream));
  SHOW(cudaMemPoolDestroy(default_pool));
  cudaGetLastError();
  SHOW(cudaMemPoolDestroy(pool));
  SHOW(cudaDeviceGetMemPool(&current, 0));
  std::printf("after destroying it the default pool is current again: %d\n", current == default_pool);
  props.allocType = cudaMemAllocationTypeInvalid;
  SHOW(cudaMemPoolCreate(&pool, &props));
  cudaGetLastError();
  SHOW(cudaFreeAsync(&last, stream));
  cudaGetLastError();
  cudaStreamDestroy(stream);
  std::printf("done\n");
  return 0;
}
