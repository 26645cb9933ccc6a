// Half-precision arithmetic and double-precision intrinsics over edge
// inputs (zeros, denormals, halfway cases, the largest values, infinities,
// NaN), printed as bit patterns: a differential test whose golden an H100
// recorded (tests/differential.txt), as edge_values.cu is for float.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int half_ops = 26;
constexpr int double_ops = 26;

__device__ unsigned long long hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned long long db(double d) { return (unsigned long long)__double_as_longlong(d); }

// Each input with its neighbours in the list as second and third operands.
__global__ void halves(const unsigned short* in, unsigned long long* out, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const __half x = __ushort_as_half(in[k]), y = __ushort_as_half(in[(k + 1) % count]),
               z = __ushort_as_half(in[(k + 2) % count]);
  unsigned long long* r = out + k * half_ops;
  int i = 0;
  r[i++] = hb(__hadd(x, y));
  r[i++] = hb(__hsub(x, y));
  r[i++] = hb(__hmul(x, y));
  r[i++] = hb(__hdiv(x, y));
  r[i++] = hb(__hfma(x, y, z));
  r[i++] = hb(__hmax(x, y));
  r[i++] = hb(__hmin(x, y));
  r[i++] = hb(__hadd_sat(x, y));
  r[i++] = hb(__hmul_sat(x, y));
  r[i++] = hb(hsqrt(x));
  r[i++] = hb(hrcp(x));
  r[i++] = hb(hrint(x));
  r[i++] = hb(htrunc(x));
  r[i++] = hb(hfloor(x));
  r[i++] = hb(hceil(x));
  r[i++] = hb(__hneg(x));
  r[i++] = hb(__habs(x));
  r[i++] = __heq(x, y) | __hlt(x, y) << 1 | __hequ(x, y) << 2 | __hne(x, y) << 3 | __hneu(x, y) << 4 |
           __hge(x, y) << 5;
  r[i++] = __hisnan(x) | (__hisinf(x) & 3) << 1;
  r[i++] = (unsigned)__half2int_rn(x);
  r[i++] = (unsigned)__half2int_rz(x);
  r[i++] = (unsigned)__half2int_rd(x);
  r[i++] = (unsigned short)__half2short_rn(x);
  r[i++] = __half2ushort_rz(x);
  r[i++] = (unsigned long long)__half2ll_rn(x);
  r[i++] = (unsigned)__float_as_uint(__half2float(x));
}

__global__ void doubles(const double* in, unsigned long long* out, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const double x = in[k];
  unsigned long long* r = out + k * double_ops;
  int i = 0;
  r[i++] = db(__dadd_rn(x, 1e-17));
  r[i++] = db(__dadd_rz(x, 1e-17));
  r[i++] = db(__dadd_ru(x, 1e-17));
  r[i++] = db(__dadd_rd(x, -1e-17));
  r[i++] = db(__dmul_rn(x, 0.1));
  r[i++] = db(__dmul_rz(x, 0.1));
  r[i++] = db(__ddiv_rn(x, 3.0));
  r[i++] = db(__ddiv_ru(x, 3.0));
  r[i++] = db(__drcp_rn(x));
  r[i++] = db(__dsqrt_rn(x));
  r[i++] = db(__dsqrt_rd(x));
  r[i++] = db(__fma_rn(x, 3.0, -1.0));
  r[i++] = db(__fma_rz(x, x, 0.5));
  r[i++] = (unsigned)__double2int_rn(x);
  r[i++] = (unsigned)__double2int_rz(x);
  r[i++] = __double2uint_ru(x);
  r[i++] = (unsigned long long)__double2ll_rn(x);
  r[i++] = (unsigned long long)__double2ll_rd(x);
  r[i++] = __double2ull_rz(x);
  r[i++] = __float_as_uint(__double2float_rn(x));
  r[i++] = __float_as_uint(__double2float_rz(x));
  r[i++] = __float_as_uint(__double2float_ru(x));
  r[i++] = __float_as_uint(__double2float_rd(x));
  r[i++] = hb(__double2half(x));
  r[i++] = (unsigned)__double2hiint(x);
  r[i++] = (unsigned)__double2loint(x);
}

template <class T, class Kernel>
void run(const char* what, Kernel kernel, const T* inputs, int count, int ops) {
  T* in;
  unsigned long long* out;
  cudaMalloc(&in, count * sizeof(T));
  cudaMalloc(&out, count * ops * sizeof(unsigned long long));
  cudaMemcpy(in, inputs, count * sizeof(T), cudaMemcpyHostToDevice);
  kernel<<<(count + 31) / 32, 32>>>(in, out, count);
  unsigned long long results[64 * 32];
  const cudaError_t status = cudaMemcpy(results, out, count * ops * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  std::printf("%s: %s\n", what, cudaGetErrorName(status));
  for (int k = 0; k < count; ++k) {
    unsigned long long bits = 0;
    std::memcpy(&bits, &inputs[k], sizeof(T));
    std::printf("input %llx:", bits);
    for (int i = 0; i < ops; ++i) std::printf(" %llx", results[k * ops + i]);
    std::printf("\n");
  }
  cudaFree(in);
  cudaFree(out);
}

int main() {
  const unsigned short half_inputs[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3800,
                                        0x3e00, 0x4100, 0xc100, 0x3bff, 0x3c01, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                                        0x7e00, 0x7c01, 0x3555, 0x4200, 0x6400, 0x6801, 0x1400, 0x0200};
  const double double_inputs[] = {0.0, -0.0, 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-310, 1.0, -1.0,
                                  0.5, 2.5, -2.5, 1.0000000000000002, 0.1, 1e300, -1e300, DBL_MAX, INFINITY,
                                  -INFINITY, NAN, 9.2233720368547758e18, -9.2233720368547758e18, 1.8446744073709552e19,
                                  2147483647.5, -2147483648.5, 4294967295.5, 3.4028235677973366e38, 65520.0,
                                  1.401298464324817e-45, 5.9604644775390625e-8};
  run("halves", halves, half_inputs, sizeof half_inputs / sizeof half_inputs[0], half_ops);
  run("doubles", doubles, double_inputs, sizeof double_inputs / sizeof double_inputs[0], double_ops);
  return 0;
}
