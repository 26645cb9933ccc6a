// cusim keeps matrix_a and matrix_b fragments whole in every lane, so a
// lane's change to such a fragment's x[] cannot reach the others: mma_sync
// stops the grid and names the reason rather than compute with stale
// values (semantics.wmma_changed_operand; on a GPU this program is fine).
#include <cstdio>
#include <mma.h>

using namespace nvcuda;

__global__ void scale_a_then_multiply(const __half* a, const __half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(fc, 0.0f);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = __float2half(2.0f * __half2float(fa.x[i]));
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

int main() {
  __half *a, *b;
  float* d;
  cudaMallocManaged(&a, 256 * sizeof(__half));
  cudaMallocManaged(&b, 256 * sizeof(__half));
  cudaMallocManaged(&d, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) a[i] = b[i] = __float2half(1.0f);
  scale_a_then_multiply<<<1, 32>>>(a, b, d);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
