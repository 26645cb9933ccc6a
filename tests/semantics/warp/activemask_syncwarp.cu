// __activemask gives the lanes that reach the call together: both sides of
// a divergent branch, lanes left after others returned, lanes still in a
// loop. __syncwarp orders shared-memory writes and reads within a warp, with
// the full mask and with half-warp masks in divergent branches.
#include <cstdio>
#include <cuda_runtime.h>

struct masks {
  unsigned branch, after_exit, loop[3];
};

__global__ void active(masks* out) {
  const int tid = threadIdx.x, lane = tid % 32;
  masks m = {0, 0, {0, 0, 0}};
  if (lane % 3 == 0) {
    m.branch = __activemask();
  } else {
    m.branch = __activemask();
  }
  for (int i = 0; i < lane % 4; ++i) m.loop[i] = __activemask();
  out[tid] = m;
  if (lane >= 10) return;
  out[tid].after_exit = __activemask();
}

__global__ void exchange(int* out) {
  __shared__ int slots[64];
  const int tid = threadIdx.x, lane = tid % 32, base = tid - lane;
  slots[tid] = tid * 10;
  __syncwarp();
  int next = slots[base + (lane + 1) % 32];
  __syncwarp();
  slots[tid] = next + 1;
  __syncwarp();
  out[tid] = slots[base + (lane + 31) % 32];  // my own neighbour's neighbour: tid * 10 + 1
  __syncwarp();  // every read above before any write below
  // Half-warps synchronize separately.
  if (lane < 16) {
    slots[tid] = lane;
    __syncwarp(0x0000ffff);
    out[64 + tid] = slots[base + 15 - lane];
  } else {
    slots[tid] = 100 + lane;
    __syncwarp(0xffff0000);
    out[64 + tid] = slots[base + 47 - lane];
  }
}

int failures = 0, checks = 0;
void check(unsigned got, unsigned want, const char* what, int tid) {
  ++checks;
  if (got != want && ++failures <= 10) std::printf("  %s thread %d: got %08x, expected %08x\n", what, tid, got, want);
}

int main() {
  const int threads = 64;
  masks* m;
  cudaMallocManaged(&m, sizeof(masks) * threads);
  active<<<1, threads>>>(m);
  cudaError_t e1 = cudaDeviceSynchronize();
  int* x;
  cudaMallocManaged(&x, sizeof(int) * 128);
  exchange<<<1, threads>>>(x);
  cudaError_t e2 = cudaDeviceSynchronize();
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    std::printf("launch failed: %s / %s\n", cudaGetErrorString(e1), cudaGetErrorString(e2));
    return 1;
  }
  unsigned thirds = 0;
  for (int lane = 0; lane < 32; lane += 3) thirds |= 1u << lane;
  for (int tid = 0; tid < threads; ++tid) {
    const int lane = tid % 32;
    check(m[tid].branch, lane % 3 == 0 ? thirds : ~thirds, "branch", tid);
    for (int i = 0; i < lane % 4; ++i) {
      unsigned want = 0;
      for (int l = 0; l < 32; ++l) {
        if (l % 4 > i) want |= 1u << l;
      }
      check(m[tid].loop[i], want, "loop", tid);
    }
    if (lane < 10) check(m[tid].after_exit, 0x3ffu, "after exit", tid);
    check(unsigned(x[tid]), unsigned(((tid - lane) + lane) * 10 + 1), "exchange", tid);
    check(unsigned(x[64 + tid]), unsigned(lane < 16 ? 15 - lane : 100 + 47 - lane), "half-warp exchange", tid);
  }
  std::printf("activemask and syncwarp: %d checks, %d failures: %s\n", checks, failures,
              failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
