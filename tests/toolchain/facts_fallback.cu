// The clang front end's facts never fail a build: a kernel only clang's
// parse sees is registered through a weak reference that stays null. A
// kernel with internal linkage gets its facts by the site of its definition.
// toolchain.kernel_facts_never_fail_a_build.
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
  __syncthreads();
  out[threadIdx.x] += cell[0];
}

int main() {
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, seen_by_both);
  std::printf("seen_by_both: %zu B before its launch\n", attributes.sharedSizeBytes);
  cudaFuncGetAttributes(&attributes, file_local);
  std::printf("file_local: %zu B before its launch\n", attributes.sharedSizeBytes);
  int* out = nullptr;
  cudaMallocManaged(&out, 32 * sizeof(int));
  seen_by_both<<<1, 32>>>(out);
  file_local<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  std::printf("out[0] = %d\n", out[0]);
  cudaFree(out);
  return 0;
}
