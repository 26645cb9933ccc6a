// Tiles larger than a warp (64 to 512 threads, as CUDA allows): ranks,
// shfl, any/all, reduce and inclusive scan, sync, in blocks of 384 threads
// (tiles of 128), 320 (tiles of 64) and 512 (tiles of 256). Expected values
// are computed on the host.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

const int fields = 6;

template <unsigned N>
__global__ void big_tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const int t = int(block.thread_rank());
  out[t * fields + 0] = int(tile.thread_rank());
  out[t * fields + 1] = int(tile.meta_group_rank());
  out[t * fields + 2] = tile.shfl(t * 3, 5u);
  out[t * fields + 3] = cg::reduce(tile, t, cg::plus<int>());
  out[t * fields + 4] = cg::inclusive_scan(tile, 2);
  out[t * fields + 5] = tile.any(t == 70) * 10 + tile.all(t < 1000);
  tile.sync();
}

int failures = 0;

template <unsigned N>
void check(int threads) {
  int* out;
  cudaMallocManaged(&out, sizeof(int) * fields * threads);
  big_tiles<N><<<1, threads>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("tile<%u> in %d threads: launch failed\n", N, threads);
    ++failures;
    return;
  }
  for (int t = 0; t < threads; ++t) {
    const int base = t / int(N) * int(N), r = t % int(N);
    int sum = 0;
    for (int k = 0; k < int(N); ++k) sum += base + k;
    const int want[fields] = {r, t / int(N), (base + 5) * 3, sum, 2 * (r + 1), (base <= 70 && 70 < base + int(N)) * 10 + 1};
    for (int f = 0; f < fields; ++f) {
      if (out[t * fields + f] != want[f] && ++failures <= 10) {
        std::printf("  tile<%u> thread %d field %d: got %d, expected %d\n", N, t, f, out[t * fields + f], want[f]);
      }
    }
  }
  cudaFree(out);
}

int main() {
  check<128>(384);
  check<64>(320);
  check<256>(512);
  std::printf("tiles larger than a warp: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
