// bfloat16 (<cuda_bf16.h>): conversions from float and double with every
// rounding, NaN and infinity, the largest and smallest values; arithmetic,
// fma, min/max with NaN and signed zeros, comparisons, math, pairs,
// shuffles, atomics, and a WMMA product of bfloat16 tiles. A differential test: an H100 recorded the golden
// (tests/differential.txt).
#include <cmath>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

constexpr int count = 16;
constexpr int ops = 24;

__global__ void conversions(const float* in, unsigned short* out) {
  const int k = threadIdx.x;
  const float x = in[k], y = in[(k + 5) % count];
  unsigned short* r = out + k * ops;
  int i = 0;
  r[i++] = __bfloat16_as_ushort(__float2bfloat16(x));
  r[i++] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
  r[i++] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
  r[i++] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
  r[i++] = __bfloat16_as_ushort(__double2bfloat16(double(x) * (1.0 + 1e-9)));
  const __nv_bfloat16 a = __float2bfloat16(x), b = __float2bfloat16(y);
  r[i++] = __bfloat16_as_ushort(__hadd(a, b));
  r[i++] = __bfloat16_as_ushort(__hsub(a, b));
  r[i++] = __bfloat16_as_ushort(__hmul(a, b));
  r[i++] = __bfloat16_as_ushort(__hdiv(a, b));
  r[i++] = __bfloat16_as_ushort(__hfma(a, b, a));
  r[i++] = __bfloat16_as_ushort(__hmax(a, b));
  r[i++] = __bfloat16_as_ushort(__hmin(a, b));
  r[i++] = __bfloat16_as_ushort(__hneg(a));
  r[i++] = __bfloat16_as_ushort(__habs(a));
  r[i++] = static_cast<unsigned short>(__heq(a, b) | __hlt(a, b) << 1 | __hgt(a, b) << 2 | __hequ(a, b) << 3 |
                                       __hisnan(a) << 4 | (__hisinf(a) + 1) << 5);
  r[i++] = __bfloat16_as_ushort(hsqrt(a));
  r[i++] = __bfloat16_as_ushort(hfloor(a));
  r[i++] = static_cast<unsigned short>(__bfloat162int_rn(a));
  const __nv_bfloat162 p = __floats2bfloat162_rn(x, y);
  const __nv_bfloat162 q = __hmul2(p, __halves2bfloat162(b, a));
  r[i++] = __bfloat16_as_ushort(__low2bfloat16(q));
  r[i++] = __bfloat16_as_ushort(__high2bfloat16(q));
  r[i++] = __bfloat16_as_ushort(a + b * a);
  r[i++] = __bfloat16_as_ushort(__shfl_xor_sync(0xffffu, a, 1));
}

__global__ void accumulate(__nv_bfloat16* total) { atomicAdd(total, __float2bfloat16(0.5f)); }

// One 16x16x16 tile product on bfloat16 operands, accumulated in float.
__global__ void tile_product(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.25f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main() {
  const float values[count] = {0.0f,        -0.0f,        1.0f,       -1.5f,          3.14159265f, 1.00390625f,
                               1.005859375f, 65504.0f,    3.4e38f,    -3.39e38f,      1e-40f,      -2e-39f,
                               INFINITY,     -INFINITY,   NAN,        0.333333343f};
  float* in;
  unsigned short* out;
  cudaMallocManaged(&in, sizeof values);
  cudaMallocManaged(&out, count * ops * sizeof(unsigned short));
  for (int k = 0; k < count; ++k) in[k] = values[k];
  conversions<<<1, count>>>(in, out);
  std::printf("conversions: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int k = 0; k < count; ++k) {
    std::printf("%2d:", k);
    for (int i = 0; i < 22; ++i) std::printf(" %04x", out[k * ops + i]);
    std::printf("\n");
  }
  __nv_bfloat16* total;
  cudaMallocManaged(&total, sizeof(__nv_bfloat16));
  *total = __float2bfloat16(0.0f);
  accumulate<<<4, 64>>>(total);
  cudaDeviceSynchronize();
  std::printf("atomicAdd: %g\n", __bfloat162float(*total));
  __nv_bfloat16 *a, *b;
  float* c;
  cudaMallocManaged(&a, 256 * sizeof(__nv_bfloat16));
  cudaMallocManaged(&b, 256 * sizeof(__nv_bfloat16));
  cudaMallocManaged(&c, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) {
    a[i] = __float2bfloat16(1.0f / (1 + i % 13));
    b[i] = __float2bfloat16((i % 7) - 3.0f);
  }
  tile_product<<<1, 32>>>(a, b, c);
  std::printf("wmma: %s", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int i = 0; i < 256; i += 17) std::printf(" %.9g", c[i]);
  std::printf("\n");
  std::printf("host: %04x %04x %g\n", __bfloat16_as_ushort(__float2bfloat16(2.5f)),
              __bfloat16_as_ushort(CUDART_INF_BF16), float(__nv_bfloat16(7)));
  return 0;
}
