// Core benchmarks: emulated kernels against a native serial loop doing the
// same work, measured in the same run. Reported as time(cusim)/time(native);
// lower is better. Run on one worker by default, as the ratios are per core:
//   build/bin/cusim_core_bench [--workers N] [--repeat R]
#include <cuda_runtime.h>
#include <cusim/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench_common.hpp"

namespace {

constexpr int threads_per_block = 256;

void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) c[i] = a[i] + b[i];
}

// The dot product of the tutorial: grid-stride partial sums, then a shared
// memory tree with a __syncthreads per level.
void dot(const float* a, const float* b, float* block_sums, int n) {
  CUSIM_SHARED(float[threads_per_block], partial);
  float sum = 0.0f;
  for (int i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(blockDim.x * gridDim.x)) sum += a[i] * b[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

void barriers(int rounds, int* sink) {
  int x = 0;
  for (int r = 0; r < rounds; ++r) {
    x += r;
    __syncthreads();
  }
  if (x == -1) *sink = x;
}

void empty_kernel(int rounds, int* sink) {
  if (rounds == -1) *sink = rounds;
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const unsigned int workers = options.workers;
  const int repeat = options.repeat;
  const int n = 1 << 24;
  float* a = device_array<float>(n);
  float* b = device_array<float>(n);
  float* c = device_array<float>(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 13);
    b[i] = 0.25f;
  }
  volatile float keep = 0;

  std::printf("cusim core benchmarks, %u worker(s), best of %d\n", workers, repeat);
  std::printf("%-44s %12s %12s %8s\n", "workload", "native ms", "cusim ms", "ratio");

  // W1: vector add of 2^24 floats.
  const double add_native = best_seconds(repeat, [&] {
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
    keep = c[n / 2];
  });
  const double add_cusim = best_seconds(repeat, [&] {
    cusim::launch(vector_add, (n + threads_per_block - 1) / threads_per_block, threads_per_block)(a, b, c, n);
    cudaDeviceSynchronize();
    keep = c[n / 2];
  });
  print_ratio("W1 vector add, 2^24 floats, 256 thr/block", add_native, add_cusim);

  // W2: dot product of 2^24 elements, 256 blocks of 256 threads.
  const int blocks = 256;
  float* sums = device_array<float>(blocks);
  const double dot_native = best_seconds(repeat, [&] {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += a[i] * b[i];
    keep = s;
  });
  const double dot_cusim = best_seconds(repeat, [&] {
    cusim::launch(dot, blocks, threads_per_block)(a, b, sums, n);
    cudaDeviceSynchronize();
    keep = sums[0];
  });
  print_ratio("W2 dot product, 2^24, 256x256 grid-stride", dot_native, dot_cusim);

  // Barrier cost: a 256-thread block passing R barriers, minus the same
  // kernel without them, per thread per barrier.
  const int rounds = 1000, barrier_blocks = 64;
  int* sink = device_array<int>(1);
  const double with = best_seconds(repeat, [&] {
    cusim::launch(barriers, barrier_blocks, 256)(rounds, sink);
    cudaDeviceSynchronize();
  });
  const double without = best_seconds(repeat, [&] {
    cusim::launch(empty_kernel, barrier_blocks, 256)(rounds, sink);
    cudaDeviceSynchronize();
  });
  const double per_thread_ns = (with - without) / (double(barrier_blocks) * 256 * rounds) * 1e9;
  std::printf("%-44s %12s %12.2f ns per thread per barrier\n", "__syncthreads, 256-thread blocks", "", per_thread_ns);
  (void)keep;
  return 0;
}
