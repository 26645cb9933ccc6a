// CUDA's atomics, min/max and shuffles are plain overload sets: the pointer
// (or the first arguments) pick the overload and the other arguments convert
// implicitly, as real programs rely on (issue 32): atomicAdd(unsigned*, int),
// atomicAdd(int*, unsigned long long), atomicExch(int*, unsigned),
// atomicExch_system(int*, unsigned), min(int, unsigned), __shfl_sync(long).
#include <cuda_runtime.h>
#include <cstdio>

struct results {
  unsigned int counter;
  int total;
  int exchanged;
  int exchanged_system;
  unsigned long long wide;
  int smallest;
  unsigned int mixed_min;
  long broadcast;
  float float_sum;
};

__global__ void use_overloads(results* r) {
  atomicAdd(&r->counter, 1);                          // unsigned*, int
  atomicAdd(&r->total, 2ull);                         // int*, unsigned long long
  atomicMax(&r->smallest, static_cast<short>(-3));    // int*, short
  atomicAdd(&r->float_sum, 1);                        // float*, int
  atomicAdd(&r->wide, 1u);                            // unsigned long long*, unsigned
  if (threadIdx.x == 0) {
    atomicExch(&r->exchanged, 7u);                    // int*, unsigned
    atomicExch_system(&r->exchanged_system, 9u);      // int*, unsigned
    r->mixed_min = min(-1, 5u);                       // int, unsigned: unsigned compare, as in CUDA
  }
  const long mine = 1000L + threadIdx.x;
  const long first = __shfl_sync(0xffffffffu, mine, 0);  // long
  if (threadIdx.x == 31) r->broadcast = first;
}

int main() {
  results* r = nullptr;
  cudaMallocManaged(&r, sizeof(results));
  *r = results{};
  r->smallest = -10;
  use_overloads<<<1, 32>>>(r);
  const cudaError_t status = cudaDeviceSynchronize();
  const bool ok = status == cudaSuccess && r->counter == 32 && r->total == 64 && r->exchanged == 7 &&
                  r->exchanged_system == 9 && r->wide == 32 && r->smallest == -3 && r->mixed_min == 5u &&
                  r->broadcast == 1000 && r->float_sum == 32.0f;
  std::printf("counter %u total %d exchanged %d/%d wide %llu max %d min %u broadcast %ld sum %.0f\n%s\n", r->counter,
              r->total, r->exchanged, r->exchanged_system, r->wide, r->smallest, r->mixed_min, r->broadcast,
              r->float_sum, ok ? "PASSED" : "FAILED");
  cudaFree(r);
  return ok ? 0 : 1;
}
