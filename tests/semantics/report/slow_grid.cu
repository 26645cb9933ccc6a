// A grid that takes about 2.5 s on one worker: 2500 blocks whose first
// thread waits 1 ms. For the progress line, shown only on a terminal.
#include <cstdio>

__global__ void slow(int* done) {
  if (threadIdx.x != 0) return;
  const long long start = clock64();
  while (clock64() - start < 1000000) {
  }
  atomicAdd(done, 1);
}

int main() {
  int* done;
  cudaMalloc(&done, sizeof(int));
  cudaMemset(done, 0, sizeof(int));
  slow<<<2500, 32>>>(done);
  int blocks = 0;
  cudaMemcpy(&blocks, done, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%d blocks finished\n", blocks);
  return blocks == 2500 ? 0 : 1;
}
