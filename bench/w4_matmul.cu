// W4 (issue 11): C = A x B for 512x512 floats, 16x16 tiles: each block
// stages one tile of A and one of B in shared memory per step, with a
// __syncthreads after loading and one after using them (64 barriers per
// thread at N = 512).
//
// The native loop is the textbook one, one dot product per element of C
// (the kernel's threads do the same); both add the products in ascending k,
// and the inputs are small integers, so the results are equal exactly.
//   bench_w4_matmul [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"
#include "native_loops.hpp"

namespace {

const int tile = 16;

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / tile; ++t) {
    a_tile[ty][tx] = a[row * n + t * tile + tx];
    b_tile[ty][tx] = b[(t * tile + ty) * n + col];
    __syncthreads();  // the tiles are complete
    for (int k = 0; k < tile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();  // every thread is done with them before the next load
  }
  c[row * n + col] = sum;
}

}  // namespace

int main(int argc, char** argv) {
  const bench_options options = read_bench_options(argc, argv);
  const int n = options.quick ? 64 : 512;  // a multiple of the tile
  float* a = device_array<float>(n * n);
  float* b = device_array<float>(n * n);
  float* c = device_array<float>(n * n);
  std::vector<float> native_c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7 - 3);
    b[i] = float(i % 5 - 2);
  }
  print_header("W4 tiled matmul", options);

  const double native = median_seconds(options.repeat, [&] { native_matmul(a, b, native_c.data(), n); });
  const dim3 grid(n / tile, n / tile), block(tile, tile);
  const double kernel = median_seconds(options.repeat, [&] {
    matmul<<<grid, block>>>(a, b, c, n);
    finish_launch();
  });

  const bool agree = std::memcmp(c, native_c.data(), std::size_t(n) * n * sizeof(float)) == 0;
  BENCH_CHECK(cudaFree(a));
  BENCH_CHECK(cudaFree(b));
  BENCH_CHECK(cudaFree(c));
  return print_workload(options.quick ? "W4 tiled matmul 16x16, N=64" : "W4 tiled matmul 16x16, N=512", native, kernel,
                        agree);
}
