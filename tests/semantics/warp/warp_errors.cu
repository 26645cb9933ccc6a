// Misused warp collectives, each of which CUDA leaves undefined (a hang, or
// garbage) and cusim reports with the block, thread, warp, lane and line.
//   warp_errors <case>   where case is one of the names in main()
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// Lane 1 calls with a mask that does not name it.
__global__ void mask_without_caller(int* out) { out[threadIdx.x] = __shfl_sync(0x1, 5, 0); }

// The half-warps call different intrinsics with the same full mask.
__global__ void different_intrinsics(int* out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0);
  else out[threadIdx.x] = __ballot_sync(0xffffffff, 1);
}

// Lanes 0-15 wait for 16-31 at a shuffle; 16-31 wait for 0-15 at __syncthreads.
__global__ void shuffle_against_barrier(int* out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0);
  __syncthreads();
}

// A 48-thread block: its second warp has 16 lanes, and reads lanes 16-31.
__global__ void read_missing_lanes(int* out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v;
}

// A width that is not a power of two.
__global__ void bad_width(int* out) { out[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0, 12); }

// The lanes of one call disagree on the mask: 0-15 name the whole warp,
// 16-31 only themselves.
__global__ void masks_disagree(int* out) {
  const unsigned int mask = threadIdx.x < 16 ? 0xffffffffu : 0xffff0000u;
  out[threadIdx.x] = static_cast<int>(__ballot_sync(mask, 1));
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  if (!std::strcmp(which, "mask")) mask_without_caller<<<1, 32>>>(out);
  else if (!std::strcmp(which, "different")) different_intrinsics<<<1, 32>>>(out);
  else if (!std::strcmp(which, "deadlock")) shuffle_against_barrier<<<1, 32>>>(out);
  else if (!std::strcmp(which, "missing")) read_missing_lanes<<<2, 48>>>(out);
  else if (!std::strcmp(which, "width")) bad_width<<<1, 32>>>(out);
  else if (!std::strcmp(which, "disagree")) masks_disagree<<<1, 32>>>(out);
  else return 2;
  std::printf("%s: %s\n", which, cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
