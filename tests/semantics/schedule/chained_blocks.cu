// Each block waits for the next block's flag before it sets its own, so the
// last block finishes first. A GPU runs this because the whole grid is
// resident at once (CUDA promises no order among blocks, but 24 blocks of
// 64 threads fit on any GPU); programs that pass work between blocks
// through flags count on it. On cusim a worker keeps few blocks resident,
// and the chain needs them all: when every thread a worker runs spins (the
// rest wait at a barrier), it takes one more block resident, up to what the
// device would hold. Spinning through __nanosleep, and through atomics alone.
// Then a software grid barrier, as persistent kernels written before
// cooperative groups make one: every block counts itself in and spins until
// all have, then reads what all wrote before it.
#include <cstdio>
#include <cuda_runtime.h>

template <bool sleeps>
__global__ void chain(unsigned* flags, unsigned* finished_as) {
  const unsigned block = blockIdx.x;
  if (threadIdx.x == 0) {
    if (block + 1 < gridDim.x) {
      while (atomicAdd(&flags[block + 1], 0u) == 0) {
        if (sleeps) __nanosleep(100);
      }
    }
    finished_as[block] = atomicAdd(&flags[gridDim.x], 1u);  // how many blocks finished before
    atomicExch(&flags[block], 1u);
  }
  __syncthreads();
}

__global__ void software_grid_barrier(unsigned* arrived, unsigned* partial, unsigned* total) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x + 1;
    __threadfence();
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
    __threadfence();
    unsigned sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += atomicAdd(&partial[b], 0u);
    total[blockIdx.x] = sum;
  }
  __syncthreads();
}

int main() {
  constexpr unsigned blocks = 24;
  unsigned *flags = nullptr, *finished_as = nullptr;
  cudaMallocManaged(&flags, sizeof(unsigned) * (blocks + 1));
  cudaMallocManaged(&finished_as, sizeof(unsigned) * blocks);
  int failures = 0;
  for (int sleeps = 1; sleeps >= 0; --sleeps) {
    for (unsigned i = 0; i <= blocks; ++i) flags[i] = 0;
    if (sleeps) {
      chain<true><<<blocks, 64>>>(flags, finished_as);
    } else {
      chain<false><<<blocks, 64>>>(flags, finished_as);
    }
    const cudaError_t result = cudaDeviceSynchronize();
    unsigned in_order = 0;
    for (unsigned b = 0; b < blocks; ++b) in_order += finished_as[b] == blocks - 1 - b;
    std::printf("%s: %s, %u of %u blocks finished after the next one\n", sleeps ? "with __nanosleep" : "atomics only",
                cudaGetErrorName(result), in_order, blocks);
    failures += result != cudaSuccess || in_order != blocks;
  }
  {
    constexpr unsigned grid = 16;  // 2048 threads: within what race checking keeps resident
    unsigned *arrived = nullptr, *partial = nullptr, *total = nullptr;
    cudaMallocManaged(&arrived, sizeof(unsigned));
    cudaMallocManaged(&partial, sizeof(unsigned) * grid);
    cudaMallocManaged(&total, sizeof(unsigned) * grid);
    *arrived = 0;
    software_grid_barrier<<<grid, 128>>>(arrived, partial, total);
    const cudaError_t result = cudaDeviceSynchronize();
    unsigned right = 0;
    for (unsigned b = 0; b < grid; ++b) right += total[b] == grid * (grid + 1) / 2;
    std::printf("software grid barrier: %s, %u of %u blocks saw every block's part\n", cudaGetErrorName(result),
                right, grid);
    failures += result != cudaSuccess || right != grid;
  }
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
