// Warp benchmarks: the cost of one __shfl_down_sync per thread, and a
// warp-shuffle reduction (5 shuffle steps, one atomic per warp) against a
// native serial sum, in the same run. Ratios are time(cusim)/time(native).
//   build/bin/cusim_warp_bench [--workers N] [--repeat R]
#include "bench_common.hpp"

namespace {

constexpr int threads_per_block = 256;

void shuffle_rounds(int rounds, int* sink) {
  int x = int(threadIdx.x);
  for (int r = 0; r < rounds; ++r) x += __shfl_down_sync(0xffffffffu, x, 1);
  if (x == -1) *sink = x;
}

void no_shuffles(int rounds, int* sink) {
  int x = int(threadIdx.x);
  for (int r = 0; r < rounds; ++r) x += r;
  if (x == -1) *sink = x;
}

void warp_reduce(const float* in, float* total, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  float v = i < n ? in[i] : 0.0f;
  for (int delta = 16; delta > 0; delta /= 2) v += __shfl_down_sync(0xffffffffu, v, unsigned(delta));
  if (threadIdx.x % 32 == 0) atomicAdd(total, v);
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  std::printf("cusim warp benchmarks, %u worker(s), best of %d\n", options.workers, options.repeat);
  std::printf("%-44s %12s %12s %8s\n", "workload", "native ms", "cusim ms", "ratio");

  // W3: a warp-shuffle reduction of 2^22 floats.
  const int n = 1 << 22;
  float* in = device_array<float>(n);
  float* total = device_array<float>(1);
  for (int i = 0; i < n; ++i) in[i] = float(i % 3);
  volatile float keep = 0;
  const double native = best_seconds(options.repeat, [&] {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += in[i];
    keep = s;
  });
  const double emulated = best_seconds(options.repeat, [&] {
    *total = 0.0f;
    cusim::launch(warp_reduce, n / threads_per_block, threads_per_block)(in, total, n);
    cudaDeviceSynchronize();
    keep = *total;
  });
  print_ratio("W3 warp-shuffle reduction, 2^22 floats", native, emulated);

  // The cost of one shuffle: R rounds in 64 blocks of 256 threads, minus the
  // same kernel without shuffles, per thread per shuffle.
  const int rounds = 200, blocks = 64;
  int* sink = device_array<int>(1);
  const double with = best_seconds(options.repeat, [&] {
    cusim::launch(shuffle_rounds, blocks, 256)(rounds, sink);
    cudaDeviceSynchronize();
  });
  const double without = best_seconds(options.repeat, [&] {
    cusim::launch(no_shuffles, blocks, 256)(rounds, sink);
    cudaDeviceSynchronize();
  });
  std::printf("%-44s %12s %12.2f ns per thread per shuffle\n", "__shfl_down_sync, full warps", "",
              (with - without) / (double(blocks) * 256 * rounds) * 1e9);
  (void)keep;
  return 0;
}
