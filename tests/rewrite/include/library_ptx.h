// A library header (a system header, as CUB's is): PTX for every GPU, some
// of it outside what cusim runs, in functions a program may never call.
#pragma GCC system_header
#include <cuda_runtime.h>

__device__ inline void library_fence_for_hopper() { asm volatile("wgmma.fence.sync.aligned;"); }

__device__ inline unsigned library_lane() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
