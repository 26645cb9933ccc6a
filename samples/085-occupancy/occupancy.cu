// 085 — occupancy: how many blocks of a launch a multiprocessor holds at once.
//
// A multiprocessor (SM) keeps the warps of several blocks resident and
// switches between them whenever one waits for memory: the more warps it
// holds, the better it hides that wait. How many blocks fit is the launch's
// occupancy, and the first of these limits to run out decides it (sm_90,
// an H100):
//   * warps: at most 64 per SM (2048 threads). A block's threads are cut
//     into warps of 32, and a block of 48 threads takes 2 whole warps, the
//     second with 16 idle lanes;
//   * blocks: at most 32 per SM, however small they are;
//   * shared memory: 228 KiB per SM, each block taking its static and
//     dynamic shared memory plus 1 KiB the system reserves;
//   * registers: 64K per SM (a GPU's compiler says how many a kernel uses).
// cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_size,
// dynamic_shared_bytes) computes that number for a kernel.
//
// The same kernel is launched here with blocks of 32, 48, 128, 256 and 1024
// threads and with 128 threads and 40 KiB of dynamic shared memory: each
// block reverses tiles of the array through `extern __shared__` memory, whose
// size the launch gives (the third <<<>>> argument). A tile is as long as
// the dynamic shared memory holds. For each launch the program prints what
// the occupancy API says and checks the result. Run it with CUSIM_REPORT=1
// to see cusim's report of each launch on stderr: the warps per block, idle
// lanes, and which limit decided the occupancy.
// Build: cusim-cc occupancy.cu -o occupancy (or nvcc).
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

// Reverses each tile of `tile` consecutive elements of in (the last may be
// shorter) into out. The block's threads load a tile into shared memory,
// wait for each other, and write it back in reverse order.
__global__ void reverse_tiles(const float* in, float* out, int n, int tile) {
  extern __shared__ float staging[];  // `tile` floats: the launch's dynamic shared memory
  for (int start = blockIdx.x * tile; start < n; start += gridDim.x * tile) {
    const int length = min(tile, n - start);
    for (int k = threadIdx.x; k < length; k += blockDim.x) staging[k] = in[start + k];
    __syncthreads();  // the whole tile is loaded
    for (int k = threadIdx.x; k < length; k += blockDim.x) out[start + k] = staging[length - 1 - k];
    __syncthreads();  // every thread is done reading before the next tile overwrites it
  }
}

int main() {
  const int n = 50000;  // not a multiple of any tile: every launch has a short last tile
  float *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(float)));
  CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  for (int i = 0; i < n; ++i) in[i] = float(i);

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s: %d warps and %d blocks per multiprocessor at most, %zu KiB shared memory\n", p.name,
              p.maxThreadsPerMultiProcessor / p.warpSize, p.maxBlocksPerMultiProcessor,
              p.sharedMemPerMultiprocessor / 1024);

  struct launch {
    int threads;  // per block
    int tile;     // floats of dynamic shared memory per block
  };
  const launch launches[] = {{32, 32}, {48, 48}, {128, 128}, {256, 256}, {1024, 1024}, {128, 40 * 1024 / 4}};
  const int max_warps = p.maxThreadsPerMultiProcessor / p.warpSize;
  std::printf("threads  warps  dynamic shared  blocks/SM  warps/SM (occupancy)  result\n");
  bool ok = true;
  for (const launch& l : launches) {
    const size_t shared_bytes = l.tile * sizeof(float);
    int blocks_per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reverse_tiles, l.threads, shared_bytes));
    const int warps_per_block = (l.threads + p.warpSize - 1) / p.warpSize;

    CHECK(cudaMemset(out, 0, n * sizeof(float)));
    reverse_tiles<<<8, l.threads, shared_bytes>>>(in, out, n, l.tile);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    bool right = true;
    for (int start = 0; start < n; start += l.tile) {
      const int length = n - start < l.tile ? n - start : l.tile;
      for (int k = 0; k < length; ++k) right = right && out[start + k] == in[start + length - 1 - k];
    }
    ok = ok && right;
    std::printf("%7d  %5d  %12zu B  %9d  %2d of %d (%3d%%)  %s\n", l.threads, warps_per_block, shared_bytes,
                blocks_per_sm, blocks_per_sm * warps_per_block, max_warps,
                100 * blocks_per_sm * warps_per_block / max_warps, right ? "correct" : "WRONG");
  }
  std::printf("every launch reversed its tiles: %s\n", ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
