// The clang front end's facts never fail a build: a kernel only clang's
// parse sees is registered through a weak reference that stays null, and a
// kernel with internal linkage gets no facts (its static shared memory is
// learnt as it runs). toolchain.kernel_facts_never_fail_a_build.
#include <cstdio>

#ifdef __CUSIM_KERNEL_FACTS__
__global__ void seen_by_clang_only(int* out) { out[0] = 1; }
#endif

__global__ void seen_by_both(int* out) {
  __shared__ int cell[32];
  cell[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = cell[31 - threadIdx.x];
}

static __global__ void file_local(int* out) {
  __shared__ int cell[8];
  cell[threadIdx.x % 8] = 1;
  out[threadIdx.x] += cell[0];
}

int main() {
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, seen_by_both);
  std::printf("seen_by_both: %zu B before its launch\n", attributes.sharedSizeBytes);
  int* out = nullptr;
  cudaMallocManaged(&out, 32 * sizeof(int));
  seen_by_both<<<1, 32>>>(out);
  file_local<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  cudaFuncGetAttributes(&attributes, file_local);
  std::printf("out[0] = %d, file_local: %zu B after its launch\n", out[0], attributes.sharedSizeBytes);
  cudaFree(out);
  return 0;
}
