// Cooperative groups of threads within a block: the block, static and
// dynamic tiles of 4, 8, 16 and 32 (also inside a divergent branch), their
// shuffles, votes and matches, reductions and scans with every operator,
// coalesced groups, labeled and binary partitions, invoke_one and
// memcpy_async. Expected values come from the definitions, on the host.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

const int threads = 96;  // three warps
const int fields = 24;

__host__ __device__ int value_of(int t) { return (t * 7 + 3) % 19; }

template <unsigned N>
__device__ void tile_checks(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const int t = int(block.thread_rank());
  const int v = value_of(t);
  int* o = out + t * fields;
  o[0] = int(tile.thread_rank());
  o[1] = int(tile.meta_group_rank());
  o[2] = int(tile.meta_group_size());
  o[3] = tile.shfl(v, int(N) - 1);
  o[4] = tile.shfl_up(v, 1);
  o[5] = tile.shfl_down(v, 2);
  o[6] = tile.shfl_xor(v, 1);
  o[7] = tile.any(v == 0);
  o[8] = tile.all(v < 19);
  o[9] = int(tile.ballot(v % 2 == 0));
  o[10] = int(tile.match_any(v % 3));
  int pred = -1;
  o[11] = int(tile.match_all(1, pred));
  o[12] = pred;
  o[13] = cg::reduce(tile, v, cg::plus<int>());
  o[14] = cg::reduce(tile, v, cg::less<int>());
  o[15] = cg::reduce(tile, v, cg::greater<int>());
  o[16] = cg::reduce(tile, v, cg::bit_and<int>());
  o[17] = cg::reduce(tile, v, cg::bit_or<int>());
  o[18] = cg::reduce(tile, v, cg::bit_xor<int>());
  o[19] = cg::inclusive_scan(tile, v);
  const int exclusive = cg::exclusive_scan(tile, v);  // every thread calls it: it is a collective
  o[20] = tile.thread_rank() == 0 ? 0 : exclusive;     // rank 0's result is undefined in CUDA
  o[21] = cg::exclusive_scan(tile, v, cg::greater<int>());
  // The same from a dynamic tile of the same size.
  cg::thread_group dynamic = cg::tiled_partition(block, N);
  o[22] = int(dynamic.size()) * 100 + int(dynamic.thread_rank());
  tile.sync();
  o[23] = int(tile.num_threads());
}

template <unsigned N>
__global__ void tiles(int* out) {
  tile_checks<N>(out);
}

// Tiles made inside a branch that only the first two warps take.
__global__ void tiles_in_branch(int* out) {
  if (threadIdx.x < 64) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, value_of(int(threadIdx.x)), cg::plus<int>());
  } else {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, value_of(int(threadIdx.x)), cg::greater<int>());
  }
}

// The odd lanes of each warp, as a coalesced group, and partitions of it.
__global__ void coalesced(int* out) {
  const int t = int(threadIdx.x);
  int* o = out + t * 8;
  if (t % 2 == 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[0] = int(active.thread_rank());
    o[1] = int(active.num_threads());
    o[2] = active.shfl(t, 3u);
    o[3] = int(active.ballot(t % 4 == 1));
    o[4] = cg::reduce(active, t, cg::plus<int>());
    o[5] = cg::inclusive_scan(active, 1);
    cg::coalesced_group same = cg::labeled_partition(active, t % 3);
    o[6] = int(same.num_threads()) * 100 + int(same.thread_rank());
    cg::coalesced_group low = cg::binary_partition(active, (t % 32) < 16);
    o[7] = int(low.num_threads());
  }
}

__global__ void block_and_misc(int* out, const int* src) {
  __shared__ int staged[threads];
  cg::thread_block block = cg::this_thread_block();
  const int t = int(block.thread_rank());
  cg::memcpy_async(block, staged, src, sizeof(int) * threads);
  cg::wait(block);
  const dim3 index = block.thread_index(), group = block.group_index(), dims = block.dim_threads();
  if (group.x != 2) return;  // the last of three blocks reports
  out[t * 4 + 0] = staged[threads - 1 - t];
  out[t * 4 + 1] = int(block.num_threads()) * 1000 + int(dims.x) * 10 + int(group.x);
  out[t * 4 + 2] = int(index.x) == t;
  auto warp = cg::tiled_partition<32>(block);
  out[t * 4 + 3] = cg::invoke_one_broadcast(warp, [&] { return 40 + int(warp.meta_group_rank()); });
}

int failures = 0;
void check(const char* what, int t, int got, int want) {
  if (got != want && ++failures <= 15) std::printf("  %s thread %d: got %d, expected %d\n", what, t, got, want);
}

template <unsigned N>
void check_tiles(int* out) {
  for (int i = 0; i < threads * fields; ++i) out[i] = -7;
  tiles<N><<<1, threads>>>(out);
  cudaDeviceSynchronize();
  const char* name = N == 4 ? "tile<4>" : N == 8 ? "tile<8>" : N == 16 ? "tile<16>" : "tile<32>";
  for (int t = 0; t < threads; ++t) {
    const int base = t / int(N) * int(N), r = t % int(N);
    int sum = 0, mn = 1 << 30, mx = -1, band = -1, bor = 0, bxor = 0, incl = 0, excl = 0, excl_max = 0;
    unsigned ballot = 0, match = 0;
    bool any_zero = false;
    for (int k = 0; k < int(N); ++k) {
      const int w = value_of(base + k);
      sum += w;
      mn = w < mn ? w : mn;
      mx = w > mx ? w : mx;
      band &= w;
      bor |= w;
      bxor ^= w;
      if (k <= r) incl += w;
      if (k < r) excl += w;
      if (k < r) excl_max = k == 0 ? w : (w > excl_max ? w : excl_max);
      if (w % 2 == 0) ballot |= 1u << k;
      if (w % 3 == value_of(t) % 3) match |= 1u << k;
      any_zero = any_zero || w == 0;
    }
    const int* o = out + t * fields;
    const int want[fields] = {r, t / int(N), (threads + int(N) - 1) / int(N), value_of(base + int(N) - 1),
                              value_of(r >= 1 ? t - 1 : t), value_of(r + 2 < int(N) ? t + 2 : t),
                              value_of(base + (r ^ 1)), any_zero, 1, int(ballot), int(match),
                              int(N == 32 ? 0xffffffffu : (1u << N) - 1u), 1, sum, mn, mx, band, bor, bxor, incl,
                              r == 0 ? 0 : excl, r == 0 ? o[21] : excl_max, int(N) * 100 + r, int(N)};
    for (int f = 0; f < fields; ++f) check(name, t * 100 + f, o[f], want[f]);
  }
}

int main() {
  int *out, *src;
  cudaMallocManaged(&out, sizeof(int) * threads * fields);
  cudaMallocManaged(&src, sizeof(int) * threads);
  check_tiles<4>(out);
  check_tiles<8>(out);
  check_tiles<16>(out);
  check_tiles<32>(out);

  tiles_in_branch<<<1, threads>>>(out);
  cudaDeviceSynchronize();
  for (int t = 0; t < threads; ++t) {
    const int n = t < 64 ? 8 : 16, base = t / n * n;
    int sum = 0, mx = -1;
    for (int k = 0; k < n; ++k) {
      sum += value_of(base + k);
      mx = value_of(base + k) > mx ? value_of(base + k) : mx;
    }
    check("tile in branch", t, out[t], t < 64 ? sum : mx);
  }

  for (int i = 0; i < threads * 8; ++i) out[i] = -7;
  coalesced<<<1, threads>>>(out);
  cudaDeviceSynchronize();
  for (int t = 1; t < threads; t += 2) {
    const int warp = t / 32 * 32, r = (t % 32) / 2;
    int sum = 0;
    unsigned ballot = 0;
    int same = 0, same_rank = 0;
    for (int k = 0; k < 16; ++k) {
      const int lane_t = warp + 2 * k + 1;
      sum += lane_t;
      if (lane_t % 4 == 1) ballot |= 1u << k;
      if (lane_t % 3 == t % 3) {
        if (lane_t < t) ++same_rank;
        ++same;
      }
    }
    const int* o = out + t * 8;
    const int want[8] = {r, 16, warp + 7, int(ballot), sum, r + 1, same * 100 + same_rank, 8};
    for (int f = 0; f < 8; ++f) check("coalesced", t * 100 + f, o[f], want[f]);
  }

  for (int i = 0; i < threads; ++i) src[i] = i * i;
  block_and_misc<<<3, threads>>>(out, src);
  cudaDeviceSynchronize();
  for (int t = 0; t < threads; ++t) {
    const int* o = out + t * 4;
    check("memcpy_async", t, o[0], (threads - 1 - t) * (threads - 1 - t));
    check("block dims", t, o[1], threads * 1000 + threads * 10 + 2);
    check("thread_index", t, o[2], 1);
    check("invoke_one_broadcast", t, o[3], 40 + t / 32);
  }
  const cudaError_t e = cudaGetLastError();
  std::printf("cooperative groups in a block: %d failures, %s: %s\n", failures, cudaGetErrorName(e),
              failures == 0 && e == cudaSuccess ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
