// A kernel whose result depends on the order its threads run in: a plain
// (non-atomic) read-modify-write of a shared counter with a wait between the
// read and the write, a "last writer wins" slot, a float sum whose rounding
// depends on the order of its atomics, and printf; then the same kernel in
// two streams at once, whose work one worker (CUSIM_WORKERS=1) runs in one
// order every time. Under one schedule and seed the output is the same every
// run; different seeds give different interleavings (CTest runs it through
// cusim-explore both ways).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void racy(int* counter, int* last_writer, float* sum) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  int seen = *counter;
  __nanosleep(100);  // other threads may run here: their increments are lost
  *counter = seen + 1;
  *last_writer = id;
  atomicAdd(sum, id % 3 == 0 ? 1e8f : 1.0f + id * 1e-3f);
  if (id % 16 == 0) printf("thread %d ran\n", id);
}

int main() {
  int* counter;
  int* last_writer;
  float* sum;
  cudaMallocManaged(&counter, sizeof(int));
  cudaMallocManaged(&last_writer, sizeof(int));
  cudaMallocManaged(&sum, sizeof(float));
  *counter = 0;
  *last_writer = -1;
  *sum = 0;
  racy<<<4, 64>>>(counter, last_writer, sum);
  cudaDeviceSynchronize();
  std::printf("counter %d of 256 increments, last writer %d, sum %.9g\n", *counter, *last_writer, *sum);
  cudaStream_t streams[2];
  for (cudaStream_t& s : streams) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (cudaStream_t s : streams) racy<<<32, 64, 0, s>>>(counter, last_writer, sum);
  cudaDeviceSynchronize();
  std::printf("two streams: counter %d, last writer %d, sum %.9g\n", *counter, *last_writer, *sum);
  return 0;
}
