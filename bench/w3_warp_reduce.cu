// W3 (issue 11): sum of 2^22 floats, one per thread, by warp shuffles: five
// __shfl_down_sync steps fold each warp's 32 values into lane 0, which adds
// them to the total with one atomicAdd.
//   bench_w3_warp_reduce [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"
#include "native_loops.hpp"

namespace {

const int threads_per_block = 256;
const unsigned full_warp = 0xffffffffu;

__global__ void warp_reduce(const float* in, float* total, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int delta = 16; delta > 0; delta /= 2) v += __shfl_down_sync(full_warp, v, delta);
  if (threadIdx.x % warpSize == 0) atomicAdd(total, v);
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const int n = options.quick ? 1 << 16 : 1 << 22;
  float* in = device_array<float>(n);
  float* total = device_array<float>(1);
  // Small integers: every partial sum is exact in float, so the atomics'
  // order does not change the total.
  for (int i = 0; i < n; ++i) in[i] = float(i % 3);
  print_header("W3 warp-shuffle reduction", options);

  float native_total = 0.0f;
  const double native = median_seconds(options.repeat, [&] { native_total = native_sum(in, n); });
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  const double kernel = median_seconds(options.repeat, [&] {
    *total = 0.0f;
    warp_reduce<<<blocks, threads_per_block>>>(in, total, n);
    finish_launch();
  });

  const bool agree = *total == native_total;
  if (!agree) std::fprintf(stderr, "W3: kernel %.1f, native %.1f\n", *total, native_total);
  BENCH_CHECK(cudaFree(in));
  BENCH_CHECK(cudaFree(total));
  return print_workload(options.quick ? "W3 warp-shuffle reduction, 2^16" : "W3 warp-shuffle reduction, 2^22", native,
                        kernel, agree);
}
