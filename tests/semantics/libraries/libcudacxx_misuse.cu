// libcu++ used against its rules: each is a report naming the call's line,
// and the grid stops: with cudaErrorMisalignedAddress for a misaligned copy
// (what the H100 answers), with cudaErrorLaunchFailure for the others (no
// error on the H100: undefined behaviour there). The mode is argv[1].
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void misaligned(const float* in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float tile[8];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&tile[0], in + 1, cuda::aligned_size_t<16>(16), bar);  // in + 1 is 4-byte aligned only
  bar.arrive_and_wait();
}

__global__ void too_many_arrivals() {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 4);
  __syncthreads();
  if (threadIdx.x == 0) (void)bar.arrive(5);
}

__global__ void wrong_role() {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state, threadIdx.x < 16 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (threadIdx.x == 20) pipe.producer_acquire();
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  if (std::strcmp(mode, "misaligned") == 0) misaligned<<<1, 32>>>(d);
  if (std::strcmp(mode, "arrivals") == 0) too_many_arrivals<<<1, 32>>>();
  if (std::strcmp(mode, "role") == 0) wrong_role<<<1, 32>>>();
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
