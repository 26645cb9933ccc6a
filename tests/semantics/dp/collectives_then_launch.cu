// Blocks whose threads all wait at warp collectives, some leaving early, and
// whose first thread launches a child grid (the shape of cuda-samples'
// cdpAdvancedQuicksort). On cusim a lane that waits at a collective queues
// a fresh fiber for the block's next thread; the lanes woken before it may
// take the block's remaining threads first, so the block can end with that
// fiber never run. It must not run afterwards for the ended block (which
// stays resident for its children) or for the block that reuses its place.
// Build with nvcc: -rdc=true -lcudadevrt.
#include <cooperative_groups.h>

#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void add_block_index(int* data, int block) { data[threadIdx.x] += 1000 * block; }

__global__ void vote_then_launch(const int* in, int* out, int len) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= len) return;  // the last block's last warps have fewer lanes, or none
  cg::coalesced_group active = cg::coalesced_threads();
  const unsigned int odd = active.ballot(in[i] % 2 != 0);
  const unsigned int rank = __popc(odd & ((1u << active.thread_rank()) - 1u));
  const int first = active.shfl(in[i], 0);
  out[i] = in[i] % 2 != 0 ? int(rank) : -1 - first;
  __syncwarp(active.ballot(true));
  if (threadIdx.x == 0) add_block_index<<<1, blockDim.x>>>(out + blockIdx.x * blockDim.x, int(blockIdx.x));
}

// The same votes without children: blocks end and their places are reused.
__global__ void vote_only(const int* in, int* out, int len) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= len) return;
  out[i] = __popc(__ballot_sync(__activemask(), in[i] % 3 == 0));
}

int expected_vote(const int* in, int i, int block_threads, int len, bool with_child) {
  const int warp_start = i / 32 * 32;
  const int lanes = (len - warp_start) < 32 ? len - warp_start : 32;
  if (!with_child) {
    int count = 0;
    for (int l = 0; l < lanes; ++l) count += in[warp_start + l] % 3 == 0;
    return count;
  }
  int value = -1 - in[warp_start];
  if (in[i] % 2 != 0) {
    value = 0;
    for (int l = warp_start; l < i; ++l) value += in[l] % 2 != 0;
  }
  return value + 1000 * (i / block_threads);  // the child of the block
}

int main() {
  constexpr int threads = 96, blocks = 40, len = threads * blocks - 45;  // the last block: 51 threads
  int *in = nullptr, *out = nullptr;
  cudaMallocManaged(&in, sizeof(int) * threads * blocks);
  cudaMallocManaged(&out, sizeof(int) * threads * blocks);
  for (int i = 0; i < threads * blocks; ++i) in[i] = (i * 7919) % 1013;
  int failures = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const bool with_child = pass == 0;
    for (int i = 0; i < threads * blocks; ++i) out[i] = 0;
    if (with_child) {
      vote_then_launch<<<blocks, threads>>>(in, out, len);
    } else {
      vote_only<<<blocks, threads>>>(in, out, len);
    }
    const cudaError_t error = cudaDeviceSynchronize();
    if (error != cudaSuccess) {
      std::printf("%s: %s\n", with_child ? "vote_then_launch" : "vote_only", cudaGetErrorString(error));
      ++failures;
      continue;
    }
    for (int i = 0; i < len; ++i) {
      const int want = expected_vote(in, i, threads, len, with_child);
      if (out[i] != want && failures++ < 5) {
        std::printf("%s: out[%d] = %d, expected %d\n", with_child ? "vote_then_launch" : "vote_only", i, out[i], want);
      }
    }
  }
  cudaFree(in);
  cudaFree(out);
  std::printf("collectives then launch: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
