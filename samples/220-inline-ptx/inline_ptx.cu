// 220 — inline PTX: stream compaction with one atomic per warp, written the
// way performance code often is, with asm statements instead of intrinsics.
//
// Each thread with a positive value needs a slot in the output. The warp
// asks which of its lanes have one (vote.sync.ballot), each lane counts the
// lanes before it that do (popc of the ballot masked by %lanemask_lt), and
// the first such lane reserves room for the whole warp with one atom.add;
// a shfl.sync hands the base to the others. Special registers (%laneid,
// %lanemask_lt) are read with mov.
//
// cusim-cc checks each asm statement's PTX when it compiles the file and
// runs it for every CUDA thread (docs/inline-ptx.md lists what it runs);
// the program builds unchanged with nvcc.
#include <cstdio>
#include <vector>

#include "../common/check.h"

__device__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// The lanes of the warp whose `keep` is true.
__device__ unsigned keeping_lanes(bool keep) {
  unsigned lanes;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
               "}"
               : "=r"(lanes)
               : "r"(unsigned(keep)));
  return lanes;
}

__global__ void keep_positive(const int* in, int n, int* out, unsigned* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0;
  const unsigned lanes = keeping_lanes(keep);
  unsigned before, below;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  asm("popc.b32 %0, %1;" : "=r"(before) : "r"(lanes & below));
  // The warp's first keeping lane reserves room for all of them.
  unsigned base = 0;
  const unsigned leader = lanes == 0 ? 0 : __ffs(lanes) - 1;
  if (lanes != 0 && lane_id() == leader) {
    unsigned total;
    asm("popc.b32 %0, %1;" : "=r"(total) : "r"(lanes));
    asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(base) : "l"(count), "r"(total) : "memory");
  }
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(base) : "r"(base), "r"(leader));
  if (keep) out[base + before] = in[i];
}

int main() {
  const int n = 1 << 16;
  std::vector<int> host(n);
  long long expected_sum = 0;
  int expected_count = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = (i * 7919) % 1000 - 300;  // about 70% positive
    if (host[i] > 0) {
      expected_sum += host[i];
      ++expected_count;
    }
  }
  int *in, *out;
  unsigned* count;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&count, sizeof(unsigned)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(count, 0, sizeof(unsigned)));
  keep_positive<<<n / 256, 256>>>(in, n, out, count);
  CHECK(cudaGetLastError());
  unsigned kept = 0;
  CHECK(cudaMemcpy(&kept, count, sizeof kept, cudaMemcpyDeviceToHost));
  std::vector<int> result(kept);
  CHECK(cudaMemcpy(result.data(), out, kept * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  bool all_positive = true;
  for (int v : result) {
    sum += v;
    all_positive = all_positive && v > 0;
  }
  // The order of the kept values depends on which warp reserved first: only
  // their count and sum are checked.
  std::printf("kept %u of %d values (expected %d), sum %lld (expected %lld)\n", kept, n, expected_count, sum,
              expected_sum);
  const bool passed = int(kept) == expected_count && sum == expected_sum && all_positive;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(count));
  return passed ? 0 : 1;
}
