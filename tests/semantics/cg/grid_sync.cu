// Grid-wide synchronisation with cooperative groups: a cooperative launch
// (typed, and through void* with an argument array) where grid.sync() in a
// loop orders writes of one block before reads of another; is_valid() in
// cooperative and ordinary launches; the occupancy limit on cooperative
// grids (cudaErrorCooperativeLaunchTooLarge).
//   grid_sync            the checks above
//   grid_sync uncooperative   grid.sync() in an ordinary launch: reported, the grid stops
#include <cstdio>
#include <cstring>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

const int rounds = 10;

// Each round every thread writes its slot, the grid syncs, and each thread
// reads the slot of the same thread in the next block, written this round.
__global__ void rotate(int* slots, int* errors) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long me = grid.thread_rank(), n = grid.num_threads();
  const unsigned long long other = (me + cg::this_thread_block().num_threads()) % n;
  for (int round = 0; round < rounds; ++round) {
    slots[me] = int(me) * 100 + round;
    grid.sync();
    if (slots[other] != int(other) * 100 + round) atomicAdd(errors, 1);
    grid.sync();  // everyone has read before the next round writes
  }
}

__global__ void validity(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = cg::this_grid().is_valid();
}

__global__ void sync_without_cooperation(int* out) {
  out[threadIdx.x] = 1;
  cg::this_grid().sync();
}

int main(int argc, char** argv) {
  int *slots, *errors, *flag;
  cudaMallocManaged(&slots, sizeof(int) * 24 * 64);  // the larger of the two grids below
  cudaMallocManaged(&errors, sizeof(int));
  cudaMallocManaged(&flag, sizeof(int) * 128);
  if (argc > 1 && std::strcmp(argv[1], "uncooperative") == 0) {
    sync_without_cooperation<<<2, 64>>>(flag);
    std::printf("uncooperative: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  int failures = 0;
  const auto expect = [&](const char* what, long long got, long long want) {
    if (got != want) {
      ++failures;
      std::printf("  %s: got %lld, expected %lld\n", what, got, want);
    }
  };

  *errors = 0;
  void* args[] = {&slots, &errors};
  expect("typed cooperative launch", cudaLaunchCooperativeKernel(rotate, dim3(24), dim3(64), args), cudaSuccess);
  expect("void* cooperative launch", cudaLaunchCooperativeKernel((void*)rotate, dim3(8), dim3(128), args, 0, 0),
         cudaSuccess);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("reads that saw another block's write of the same round too early or too late", *errors, 0);

  void* flag_args[] = {&flag};
  flag[0] = -1;
  validity<<<1, 32>>>(flag);
  cudaDeviceSynchronize();
  expect("is_valid() in an ordinary launch (1 on an H100 with CUDA 13)", flag[0], 1);
  cudaLaunchCooperativeKernel((void*)validity, dim3(2), dim3(32), flag_args);
  cudaDeviceSynchronize();
  expect("is_valid() in a cooperative launch", flag[0], 1);

  // The most blocks that can be resident at once, and one more.
  int per_sm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rotate, 256, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  expect("blocks of 256 threads per multiprocessor", per_sm, 8);
  expect("one block too many", cudaLaunchCooperativeKernel(rotate, dim3(per_sm * sms + 1), dim3(256), args),
         cudaErrorCooperativeLaunchTooLarge);
  expect("the error is not sticky", cudaDeviceSynchronize(), cudaSuccess);
  std::printf("grid sync: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
