// A kernel whose threads never wait (cusim-cc's front end finds it) runs in
// the kernel's loop row by row (thread_loop::run_rows): every thread must
// still see its own threadIdx and rank, in blocks of any shape, whole rows
// or not, and with more threads than one record covers (256).
//
// With the argument "hidden", the front end is shown a kernel without the
// barrier the program runs (as a bug in it would): the grid must fail with
// a report saying so, not run wrongly.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void record_indices(unsigned* out) {
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned rank = cg::this_thread_block().thread_rank();
  out[block * blockDim.x * blockDim.y * blockDim.z + linear] = rank == linear ? linear + 1 : 0;
}

__global__ void hidden_barrier(unsigned* out) {
#ifndef __CUSIM_KERNEL_FACTS__  // defined only while the front end reads the file
  __syncthreads();
#endif
  out[threadIdx.x] = 1;
}

int check_shape(dim3 grid, dim3 block) {
  const unsigned threads = block.x * block.y * block.z, count = grid.x * grid.y * grid.z * threads;
  unsigned* out;
  cudaMallocManaged(&out, count * sizeof(unsigned));
  std::memset(out, 0, count * sizeof(unsigned));
  record_indices<<<grid, block>>>(out);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (unsigned i = 0; i < count; ++i) wrong += out[i] != i % threads + 1;
  std::printf("grid (%u,%u,%u), block (%u,%u,%u): %d wrong\n", grid.x, grid.y, grid.z, block.x, block.y, block.z,
              wrong);
  cudaFree(out);
  return wrong;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "hidden") == 0) {
    unsigned* out;
    cudaMallocManaged(&out, 64 * sizeof(unsigned));
    hidden_barrier<<<2, 64>>>(out);
    std::printf("hidden barrier: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  int wrong = check_shape(dim3(2, 2, 1), dim3(5, 3, 2)) + check_shape(dim3(3), dim3(1, 150, 2)) +
              check_shape(dim3(2), dim3(1024)) + check_shape(dim3(7), dim3(33)) +
              check_shape(dim3(1, 2, 2), dim3(17, 31, 1));
  std::printf("%s\n", wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
