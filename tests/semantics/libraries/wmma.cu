// WMMA (nvcuda::wmma): one warp multiplies tiles of every supported type
// and shape; the results and element counts are printed for comparison with
// an H100 (diff.wmma), and checked here against a plain loop.
#include <cstdio>
#include <mma.h>

using namespace nvcuda;

static int failures = 0;

// D = A*B + C on one warp, A row-major (lda = k), B col-major (ldb = k), C and
// D row-major; then D's elements scaled by 2 through x[], as code does.
template <class T, class Acc, int M, int N, int K, class Frag = T>
__global__ void multiply(const T* a, const T* b, const Acc* c, Acc* d, int* counts) {
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; ++i) fc.x[i] = fc.x[i] * static_cast<Acc>(2);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
  if (threadIdx.x == 0) {
    counts[0] = fa.num_elements;
    counts[1] = fb.num_elements;
    counts[2] = fc.num_elements;
  }
}

__global__ void filled(float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fa, __float2half(0.5f));
  wmma::fill_fragment(fb, __float2half(2.0f));
  wmma::fill_fragment(fc, 1.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

// __float_to_tf32 rounds to nearest, ties away from zero.
__global__ void to_tf32(float* out) {
  out[0] = wmma::__float_to_tf32(1.00048828125f);
  out[1] = wmma::__float_to_tf32(1.00146484375f);
  out[2] = wmma::__float_to_tf32(-1.00048828125f);
}

template <class T>
double as_double(T v) {
  return static_cast<double>(v);
}
template <>
double as_double(__half v) {
  return __half2float(v);
}

template <class T, class Acc, int M, int N, int K, class Frag = T>
void run(const char* name, double (*value)(int, int, int)) {
  T *a, *b;
  Acc *c, *d;
  int* counts;
  cudaMallocManaged(&a, M * K * sizeof(T));
  cudaMallocManaged(&b, K * N * sizeof(T));
  cudaMallocManaged(&c, M * N * sizeof(Acc));
  cudaMallocManaged(&d, M * N * sizeof(Acc));
  cudaMallocManaged(&counts, 3 * sizeof(int));
  for (int i = 0; i < M; ++i)
    for (int kk = 0; kk < K; ++kk) a[i * K + kk] = static_cast<T>(value(0, i, kk));
  for (int kk = 0; kk < K; ++kk)
    for (int j = 0; j < N; ++j) b[j * K + kk] = static_cast<T>(value(1, kk, j));  // column-major
  for (int i = 0; i < M * N; ++i) c[i] = static_cast<Acc>(value(2, i / N, i % N));
  multiply<T, Acc, M, N, K, Frag><<<1, 32>>>(a, b, c, d, counts);
  cudaDeviceSynchronize();
  double checksum = 0, worst = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double expected = as_double(c[i * N + j]);
      for (int kk = 0; kk < K; ++kk) expected += as_double(a[i * K + kk]) * as_double(b[j * K + kk]);
      expected *= 2;
      const double got = as_double(d[i * N + j]);
      checksum += got * (1 + (i * N + j) % 7);
      const double error = std::fabs(got - expected) / (std::fabs(expected) + 1);
      worst = error > worst ? error : worst;
    }
  }
  const bool ok = worst < 2e-3;
  if (!ok) ++failures;
  // Elements per lane are the implementation's (a GPU's differ): checked, not printed.
  if (counts[2] * 32 != M * N || counts[0] * 32 < M * K || counts[1] * 32 < K * N) ++failures;
  std::printf("%s: checksum %.6e, %s\n", name, checksum, ok ? "ok" : "WRONG");
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
  cudaFree(counts);
}

double small_values(int which, int r, int c) { return ((r * 3 + c * 5 + which * 7) % 9 - 4) * 0.25; }
double small_integers(int which, int r, int c) { return (r * 7 + c * 3 + which * 5) % 23 - 11; }
double unsigned_integers(int which, int r, int c) { return (r * 7 + c * 3 + which * 5) % 200; }
double tf32_values(int which, int r, int c) { return ((r * 3 + c * 5 + which * 7) % 9 - 4) * 0.125; }

int main() {
  run<__half, float, 16, 16, 16>("half m16n16k16, float accumulator", small_values);
  run<__half, float, 32, 8, 16>("half m32n8k16, float accumulator", small_values);
  run<__half, float, 8, 32, 16>("half m8n32k16, float accumulator", small_values);
  run<__half, __half, 16, 16, 16>("half m16n16k16, half accumulator", small_values);
  run<signed char, int, 16, 16, 16>("s8 m16n16k16", small_integers);
  run<unsigned char, int, 32, 8, 16>("u8 m32n8k16", unsigned_integers);
  run<float, float, 16, 16, 8, wmma::precision::tf32>("tf32 m16n16k8", tf32_values);
  run<double, double, 8, 8, 4>("double m8n8k4", small_values);
  float* d;
  cudaMallocManaged(&d, 256 * sizeof(float));
  filled<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  std::printf("filled: %.1f %.1f\n", d[0], d[255]);
  if (d[0] != 17.0f || d[255] != 17.0f) ++failures;
  to_tf32<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  std::printf("tf32 of 1 + 2^-11, 1 + 3 * 2^-11, -1 - 2^-11: %.10f %.10f %.10f\n", d[0], d[1], d[2]);
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
