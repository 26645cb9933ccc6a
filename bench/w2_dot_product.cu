// W2 (issue 11): dot product of 2^24 floats on a 256x256 grid: grid-stride
// partial sums, then a shared-memory tree with a __syncthreads per level
// (9 barriers per thread).
//   bench_w2_dot_product [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"
#include "native_loops.hpp"

namespace {

const int threads_per_block = 256;  // a power of two, for the halving tree
const int blocks = 256;

__global__ void dot(const float* a, const float* b, float* block_sums, int n) {
  __shared__ float partial[threads_per_block];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += a[i] * b[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const int n = options.quick ? 1 << 16 : 1 << 24;
  float* a = device_array<float>(n);
  float* b = device_array<float>(n);
  float* block_sums = device_array<float>(blocks);
  // Small integers: every partial sum is an integer below 2^24, exact in
  // float, so both orders of summation give the same total.
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 3);
    b[i] = float((i / 3) % 2);
  }
  print_header("W2 dot product", options);

  float native_sum = 0.0f;
  const double native = median_seconds(options.repeat, [&] { native_sum = native_dot(a, b, n); });
  const double kernel = median_seconds(options.repeat, [&] {
    dot<<<blocks, threads_per_block>>>(a, b, block_sums, n);
    finish_launch();
  });

  float kernel_sum = 0.0f;
  for (int i = 0; i < blocks; ++i) kernel_sum += block_sums[i];
  const bool agree = kernel_sum == native_sum;
  if (!agree) std::fprintf(stderr, "W2: kernel %.1f, native %.1f\n", kernel_sum, native_sum);
  BENCH_CHECK(cudaFree(a));
  BENCH_CHECK(cudaFree(b));
  BENCH_CHECK(cudaFree(block_sums));
  return print_workload(options.quick ? "W2 dot product, 2^16, 256x256 grid-stride" : "W2 dot product, 2^24, 256x256 grid-stride",
                        native, kernel, agree);
}
