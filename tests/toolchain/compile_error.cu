// Must not compile: a type error on line 23, after the constructs cusim-cc
// rewrites (a launch whose configuration spans lines, and __shared__
// declarations, one of them over two lines). If the rewrite dropped or added
// a line break, the error would be reported at the wrong line. nvcc rejects
// the file at the same line.
#include <cuda_runtime.h>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }

void launch_fill(int* out) {
  fill<<<1,
         32>>>(out);
}

__global__ void stage(int* out) {
  __shared__ int tile[32];
  __shared__ float low[4],
                   high[4];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 4) low[threadIdx.x] = high[threadIdx.x] = 0.0f;

  int* first = tile[0];  // the type error: an int is not an int*
  out[0] = *first;
}
