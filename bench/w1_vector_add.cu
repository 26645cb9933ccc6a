// W1 (issue 11): vector add of 2^24 floats, 256 threads per block, one
// element per thread: the cost of starting threads that never wait.
//   bench_w1_vector_add [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"
#include "native_loops.hpp"

namespace {

const int threads_per_block = 256;

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const int n = options.quick ? 1 << 16 : 1 << 24;
  float* a = device_array<float>(n);
  float* b = device_array<float>(n);
  float* c = device_array<float>(n);
  std::vector<float> native_c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 1000) * 0.5f;
    b[i] = float(i % 7);
  }
  print_header("W1 vector add", options);

  const double native = median_seconds(options.repeat, [&] { native_vector_add(a, b, native_c.data(), n); });
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  const double kernel = median_seconds(options.repeat, [&] {
    vector_add<<<blocks, threads_per_block>>>(a, b, c, n);
    finish_launch();
  });

  const bool agree = std::memcmp(c, native_c.data(), n * sizeof(float)) == 0;
  BENCH_CHECK(cudaFree(a));
  BENCH_CHECK(cudaFree(b));
  BENCH_CHECK(cudaFree(c));
  return print_workload(options.quick ? "W1 vector add, 2^16 floats" : "W1 vector add, 2^24 floats", native, kernel,
                        agree);
}
