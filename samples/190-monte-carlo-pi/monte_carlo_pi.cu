// 190 — random numbers in kernels: estimating pi with cuRAND's device API.
//
// Each thread keeps its own generator state (curandState, the XORWOW
// generator) and draws points in the unit square; the fraction that falls
// inside the quarter circle is pi/4. curand_init(seed, subsequence, offset)
// gives every thread the same seed and its own subsequence: the streams are
// 2^67 numbers apart, so no two threads draw the same numbers, and a run
// draws the same numbers on every GPU and on cusim (its generators are
// cuRAND's, bit for bit).
//
// Initialising a state with a large subsequence is costly (a jump of 2^67
// steps per subsequence bit), so the states are set up once by one kernel,
// kept in global memory, and used by the next: a common pattern. The second
// kernel copies its state into a local variable, draws, and stores it back,
// so that a further launch would continue each stream.
#include <cmath>
#include <cstdio>
#include <curand_kernel.h>

constexpr int threads_per_block = 128;
constexpr int blocks = 64;
constexpr int draws_per_thread = 2048;

__global__ void setup(curandState* states, unsigned long long seed) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, unsigned int* inside) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState state = states[id];
  unsigned int count = 0;
  for (int i = 0; i < draws_per_thread; ++i) {
    const float x = curand_uniform(&state);  // in (0, 1]
    const float y = curand_uniform(&state);
    count += x * x + y * y <= 1.0f;
  }
  states[id] = state;
  // One atomic per block: the threads' counts meet in shared memory first.
  __shared__ unsigned int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  atomicAdd(&block_count, count);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(inside, block_count);
}

int main() {
  const int n = blocks * threads_per_block;
  curandState* states;
  unsigned int* inside;
  cudaMalloc(&states, n * sizeof(curandState));
  cudaMallocManaged(&inside, sizeof(unsigned int));
  *inside = 0;
  setup<<<blocks, threads_per_block>>>(states, 2024);
  count_inside<<<blocks, threads_per_block>>>(states, inside);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAILED: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const double total = double(n) * draws_per_thread;
  const double pi = 4.0 * *inside / total;
  // The estimate's standard deviation is 4 * sqrt(p(1-p)/total), about 0.0006 here.
  const bool ok = std::fabs(pi - M_PI) < 0.005;
  std::printf("%u of %.0f points inside: pi is about %.5f (error %.5f)\n%s\n", *inside, total, pi, pi - M_PI,
              ok ? "PASSED" : "FAILED");
  cudaFree(states);
  cudaFree(inside);
  return ok ? 0 : 1;
}
