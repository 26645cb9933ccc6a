// Lanes that skip a pass of a loop reach its collective with the next
// pass's mask while the lanes of the pass before still wait there: legal
// CUDA (each collective completes when the lanes its mask names call it
// with that mask), which cusim once stopped as lanes disagreeing on the
// mask. The generated differential suite found it (tests/generated).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void passes(unsigned int* out) {
  const unsigned int lane = threadIdx.x;
  unsigned int total = 0;
  for (int pass = 0; pass < 3; ++pass) {
    // Pass 0: lanes 0-15; pass 1: every lane; pass 2: the odd ones.
    const unsigned int mask = pass == 0 ? 0x0000ffffu : pass == 1 ? 0xffffffffu : 0xaaaaaaaau;
    if (!(mask >> lane & 1)) continue;
    total += __popc(__ballot_sync(mask, lane & 1)) * 100;
    total += __shfl_xor_sync(mask, lane, 2);
  }
  out[lane] = total;
}

int main() {
  unsigned int* out;
  cudaMallocManaged(&out, 32 * sizeof(unsigned int));
  passes<<<1, 32>>>(out);
  const cudaError_t status = cudaDeviceSynchronize();
  int wrong = 0;
  for (unsigned int lane = 0; lane < 32; ++lane) {
    unsigned int expected = 1600 + (lane ^ 2);  // pass 1: 16 odd lanes
    if (lane < 16) expected += 800 + (lane ^ 2);  // pass 0: 8 odd lanes of 16
    if (lane & 1) expected += 1600 + (lane ^ 2);  // pass 2: all 16 lanes odd
    if (out[lane] != expected) {
      std::printf("lane %u: %u, expected %u\n", lane, out[lane], expected);
      ++wrong;
    }
  }
  std::printf("%s, %d lanes wrong\n%s\n", cudaGetErrorName(status), wrong, wrong == 0 && status == cudaSuccess ? "PASSED" : "FAILED");
  return 0;
}
