// A macro that expands to `#pragma unroll` in device code (moderngpu's
// meta.hxx: `#define PRAGMA_UNROLL #pragma unroll` under __CUDA_ARCH__),
// which nvcc's device pass takes, alone on its line, and g++ refuses as a
// stray '#'. The hint goes (blanks keep the columns); a `#pragma unroll`
// the file writes itself stays. nvcc 13 builds this file
// (nvcc.build.device_pass_pragmas); it refuses `PRAGMA_UNROLL for (...)`
// on one line, and so does cusim-cc.
#include <cstdio>

#ifdef __CUDA_ARCH__
#define PRAGMA_UNROLL #pragma unroll
#define PRAGMA_UNROLL_4 #pragma unroll (2 * 2)
#define PRAGMA_UNROLL_K #pragma unroll unroll_by
#else
#define PRAGMA_UNROLL
#define PRAGMA_UNROLL_4
#define PRAGMA_UNROLL_K
#endif

constexpr int unroll_by = 2;

__global__ void unrolled(int* p) {
  int sum = 0;
  PRAGMA_UNROLL
  for (int i = 0; i < 4; ++i) sum += i;
  PRAGMA_UNROLL
  for (int i = 0; i < 3; ++i) sum += 10;
  PRAGMA_UNROLL_4
  for (int i = 0; i < 4; ++i) sum += 100;
  PRAGMA_UNROLL_K
  for (int i = 0; i < 2; ++i) sum += 10000;
  // CHECK-NOT: pragma unroll (2 * 2)
#pragma unroll 2
  for (int i = 0; i < 2; ++i) sum += 1000;
  // CHECK: #pragma unroll 2
  p[threadIdx.x] = sum;
}

int main() {
  int* d;
  cudaMallocManaged(&d, 32 * sizeof(int));
  unrolled<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  printf("unrolled %d %d\n", d[0], d[31]);
  // OUTPUT: unrolled 22436 22436
}
