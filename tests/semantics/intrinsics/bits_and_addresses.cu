// __fns (the n-th set bit from a base bit, either way) over masks, bases and
// offsets, including those that find nothing; the address-space
// conversions (__cvta_*), which must round-trip and keep distances between
// addresses; __threadfence_cluster and __prof_trigger compile and return.
// The output is what an H200 printed (diff.intrinsics.bits_and_addresses).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int mask_count = 6, base_count = 5, offset_count = 9;
__constant__ unsigned int masks[mask_count] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xf0f0f0f0u};
__constant__ unsigned int bases[base_count] = {0, 5, 16, 31, 32};
__constant__ int offsets[offset_count] = {-33, -3, -1, 0, 1, 2, 5, 32, 33};
__device__ int global_word;

__global__ void find_bits(unsigned int* out) {
  const int i = threadIdx.x;  // one thread per (mask, base, offset)
  const int m = i / (base_count * offset_count), b = i / offset_count % base_count, o = i % offset_count;
  out[i] = __fns(masks[m], bases[b], offsets[o]);
}

__global__ void convert_addresses(long long* out) {
  __shared__ int tile[64];
  int local[4] = {1, 2, 3, 4};
  tile[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  __threadfence_cluster();
  __prof_trigger(0);
  if (threadIdx.x != 0) return;
  const size_t shared = __cvta_generic_to_shared(&tile[5]);
  const size_t global = __cvta_generic_to_global(&global_word);
  const size_t constant = __cvta_generic_to_constant(&masks[3]);
  const size_t local_bits = __cvta_generic_to_local(&local[2]);
  out[0] = static_cast<long long>(__cvta_generic_to_shared(&tile[9]) - shared);
  out[1] = *static_cast<int*>(__cvta_shared_to_generic(shared));
  out[2] = static_cast<int*>(__cvta_global_to_generic(global)) == &global_word;
  out[3] = *static_cast<const unsigned int*>(__cvta_constant_to_generic(constant)) == 0xffffffffu;
  out[4] = *static_cast<int*>(__cvta_local_to_generic(local_bits));
  out[5] = static_cast<long long>(__cvta_generic_to_constant(&masks[5]) - __cvta_generic_to_constant(&masks[1]));
}

int main() {
  const int count = mask_count * base_count * offset_count;
  unsigned int* found = nullptr;
  long long* converted = nullptr;
  cudaMallocManaged(&found, count * sizeof(unsigned int));
  cudaMallocManaged(&converted, 6 * sizeof(long long));
  find_bits<<<1, count>>>(found);
  convert_addresses<<<1, 64>>>(converted);
  const cudaError_t status = cudaDeviceSynchronize();
  const unsigned int host_masks[mask_count] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xf0f0f0f0u};
  const int host_bases[base_count] = {0, 5, 16, 31, 32};
  std::printf("__fns(mask, base, offset) for offsets -33 -3 -1 0 1 2 5 32 33 (-1: none)\n");
  for (int m = 0; m < mask_count; ++m) {
    for (int b = 0; b < base_count; ++b) {
      std::printf("mask %08x base %2d:", host_masks[m], host_bases[b]);
      for (int o = 0; o < offset_count; ++o) {
        std::printf(" %d", static_cast<int>(found[(m * base_count + b) * offset_count + o]));
      }
      std::printf("\n");
    }
  }
  std::printf("shared &tile[9] - &tile[5]: %lld bytes; back to generic reads %lld\n", converted[0], converted[1]);
  std::printf("global round trip: %lld; constant round trip: %lld; local round trip reads %lld\n", converted[2],
              converted[3], converted[4]);
  std::printf("constant &masks[5] - &masks[1]: %lld bytes\n", converted[5]);
  std::printf("status: %s\n", cudaGetErrorName(status));
  return status == cudaSuccess ? 0 : 1;
}
