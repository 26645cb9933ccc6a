// Votes (__all_sync, __any_sync, __ballot_sync) over full warps, a partial
// last warp, disjoint masks in divergent branches, and lanes that exited
// before the vote (PTX: only non-exited lanes named in the mask take part).
// Expected values come from those rules, computed on the host.
#include <cstdio>
#include <cuda_runtime.h>

const int patterns = 4;

// Predicate `p` of thread `tid`: all true, all false, one lane, every third lane.
__host__ __device__ bool predicate(int p, int tid) {
  switch (p) {
    case 0: return true;
    case 1: return false;
    case 2: return tid % 32 == 7;
    default: return tid % 3 == 0;
  }
}

struct votes {
  unsigned ballot;
  int all, any;
};

// Full mask for every lane (a partial warp's missing lanes take no part).
__global__ void vote_full(votes* out) {
  const int tid = threadIdx.x;
  for (int p = 0; p < patterns; ++p) {
    const bool mine = predicate(p, tid);
    out[p * blockDim.x + tid] = {__ballot_sync(0xffffffff, mine), __all_sync(0xffffffff, mine),
                                 __any_sync(0xffffffff, mine)};
  }
}

// The lower and upper half-warps diverge, each voting with its own mask.
__global__ void vote_halves(votes* out) {
  const int tid = threadIdx.x;
  for (int p = 0; p < patterns; ++p) {
    const bool mine = predicate(p, tid);
    if (tid % 32 < 16) {
      out[p * blockDim.x + tid] = {__ballot_sync(0x0000ffff, mine), __all_sync(0x0000ffff, mine),
                                   __any_sync(0x0000ffff, mine)};
    } else {
      out[p * blockDim.x + tid] = {__ballot_sync(0xffff0000, mine), __all_sync(0xffff0000, mine),
                                   __any_sync(0xffff0000, mine)};
    }
  }
}

// Lanes 20 and up leave first; the rest vote with the full mask.
__global__ void vote_after_exit(votes* out) {
  const int tid = threadIdx.x;
  if (tid % 32 >= 20) return;
  for (int p = 0; p < patterns; ++p) {
    const bool mine = predicate(p, tid);
    out[p * blockDim.x + tid] = {__ballot_sync(0xffffffff, mine), __all_sync(0xffffffff, mine),
                                 __any_sync(0xffffffff, mine)};
  }
}

int failures = 0, checks = 0;

// What lane `tid` should see when the lanes in `voters` (of its warp) vote.
void expect(const char* what, int threads, const votes* out, unsigned (*voters_of)(int tid, int threads)) {
  for (int p = 0; p < patterns; ++p) {
    for (int tid = 0; tid < threads; ++tid) {
      const unsigned voters = voters_of(tid, threads);
      if ((voters & (1u << (tid % 32))) == 0) continue;  // did not vote
      unsigned ballot = 0;
      for (int lane = 0; lane < 32; ++lane) {
        if ((voters & (1u << lane)) && predicate(p, tid - tid % 32 + lane)) ballot |= 1u << lane;
      }
      const votes& got = out[p * threads + tid];
      ++checks;
      if (got.ballot != ballot || got.all != (ballot == voters) || got.any != (ballot != 0)) {
        if (++failures <= 10) {
          std::printf("  %s pattern %d thread %d: ballot %08x all %d any %d, expected %08x %d %d\n", what, p, tid,
                      got.ballot, got.all, got.any, ballot, ballot == voters, ballot != 0);
        }
      }
    }
  }
}

// The lanes of tid's warp that exist in a block of `threads`.
unsigned existing(int tid, int threads) {
  const int in_warp = threads - (tid - tid % 32);
  return in_warp >= 32 ? 0xffffffffu : (1u << in_warp) - 1;
}
unsigned same_half(int tid, int threads) { return existing(tid, threads) & (tid % 32 < 16 ? 0x0000ffffu : 0xffff0000u); }
unsigned below_20(int tid, int threads) { return existing(tid, threads) & 0x000fffffu; }

void run(const char* what, void (*kernel)(votes*), int threads, unsigned (*voters_of)(int, int)) {
  votes* out;
  cudaMallocManaged(&out, sizeof(votes) * patterns * threads);
  kernel<<<1, threads>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    ++failures;
  } else {
    expect(what, threads, out, voters_of);
  }
  cudaFree(out);
}

int main() {
  run("full mask, 2 warps", vote_full, 64, existing);
  run("full mask, partial last warp of 8 lanes", vote_full, 40, existing);
  run("half-warp masks", vote_halves, 64, same_half);
  run("half-warp masks, partial last warp", vote_halves, 56, same_half);
  run("after lanes 20-31 exited", vote_after_exit, 64, below_20);
  std::printf("votes: %d checks, %d failures: %s\n", checks, failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
