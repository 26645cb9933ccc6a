// W5 (issue 11): a 256-bin histogram of 2^24 bytes, one byte per thread,
// each counted with an atomicAdd on the global bins.
//   bench_w5_histogram [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"
#include "native_loops.hpp"

namespace {

const int threads_per_block = 256;
const int bins = 256;

__global__ void histogram(const unsigned char* data, unsigned int* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[data[i]], 1u);
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const int n = options.quick ? 1 << 16 : 1 << 24;
  unsigned char* data = device_array<unsigned char>(n);
  unsigned int* counts = device_array<unsigned int>(bins);
  unsigned int native_counts[bins];
  unsigned int state = 12345;  // a linear congruential generator: bytes of every value, in no order
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = (unsigned char)(state >> 24);
  }
  print_header("W5 histogram", options);

  const double native = median_seconds(options.repeat, [&] {
    std::memset(native_counts, 0, sizeof native_counts);
    native_histogram(data, native_counts, n);
  });
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  const double kernel = median_seconds(options.repeat, [&] {
    BENCH_CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned int)));
    histogram<<<blocks, threads_per_block>>>(data, counts, n);
    finish_launch();
  });

  const bool agree = std::memcmp(counts, native_counts, sizeof native_counts) == 0;
  BENCH_CHECK(cudaFree(data));
  BENCH_CHECK(cudaFree(counts));
  return print_workload(options.quick ? "W5 histogram, 256 bins, 2^16 bytes" : "W5 histogram, 256 bins, 2^24 bytes",
                        native, kernel, agree);
}
