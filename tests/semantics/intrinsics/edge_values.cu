// Conversions and correctly rounded arithmetic over edge inputs (zeros,
// denormals, halfway cases, values beyond an integer's range, infinities,
// NaN), printed as bit patterns: a differential test, whose golden an H100
// recorded (tests/differential.txt). Only operations with one right answer
// are here; the fast-math approximations (__sinf, __expf, ...) are checked
// within their documented error in intrinsics.cu. The intrinsics' NaNs are
// compared bit for bit (a GPU's are the canonical 0x7fffffff); those of the
// C math functions (rintf ... fabsf) print as "nan": cusim runs the host's
// library there, which keeps the input's NaN.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int ops = 40;
constexpr int first_libm = 24, last_libm = 32;  // rintf ... fabsf below

__device__ unsigned int bits(float f) { return __float_as_uint(f); }

__global__ void apply(const float* in, unsigned long long* out, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const float x = in[k];
  unsigned long long* r = out + k * ops;
  int i = 0;
  r[i++] = unsigned(__float2int_rn(x));
  r[i++] = unsigned(__float2int_rz(x));
  r[i++] = unsigned(__float2int_ru(x));
  r[i++] = unsigned(__float2int_rd(x));
  r[i++] = __float2uint_rn(x);
  r[i++] = __float2uint_rz(x);
  r[i++] = (unsigned long long)__float2ll_rn(x);
  r[i++] = (unsigned long long)__float2ll_rz(x);
  r[i++] = __float2ull_rn(x);
  r[i++] = __float2ull_rd(x);
  r[i++] = bits(__fadd_rn(x, 1e-8f));
  r[i++] = bits(__fadd_rz(x, 1e-8f));
  r[i++] = bits(__fadd_ru(x, 1e-8f));
  r[i++] = bits(__fadd_rd(x, -1e-8f));
  r[i++] = bits(__fmul_rn(x, 0.1f));
  r[i++] = bits(__fmul_rz(x, 0.1f));
  r[i++] = bits(__fdiv_rn(x, 3.0f));
  r[i++] = bits(__fdiv_ru(x, 3.0f));
  r[i++] = bits(__frcp_rn(x));
  r[i++] = bits(__fsqrt_rn(x));
  r[i++] = bits(__fsqrt_rz(x));
  r[i++] = bits(__fmaf_rn(x, 3.0f, -1.0f));
  r[i++] = bits(__fmaf_rz(x, x, 0.5f));
  r[i++] = bits(__saturatef(x));
  r[i++] = bits(rintf(x));
  r[i++] = bits(truncf(x));
  r[i++] = bits(roundf(x));
  r[i++] = bits(floorf(x));
  r[i++] = bits(ceilf(x));
  r[i++] = bits(fminf(x, 1.0f));
  r[i++] = bits(fmaxf(x, -1.0f));
  r[i++] = bits(copysignf(2.0f, x));
  r[i++] = bits(fabsf(x));
  r[i++] = __half_as_ushort(__float2half_rn(x));
  r[i++] = __half_as_ushort(__float2half_rz(x));
  r[i++] = bits(__half2float(__float2half_rn(x)));
  r[i++] = bits(__double2float_rn(double(x) * (1.0 + 1e-9)));
  r[i++] = bits(__double2float_rz(double(x) * (1.0 + 1e-9)));
  r[i++] = bits(__int2float_rn(int(x > 0 ? 16777217 : -16777219)));
  r[i++] = bits(__ull2float_rz(0xffffffffffffffffull >> (k % 40)));
}

int main() {
  const float inputs[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1.17549435e-38f, 1e-40f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f,
                          1.0f, -1.0f, 0.99999994f, 3.0f, 65504.0f, 65520.0f, 70000.0f, 5.96e-8f, 2.98e-8f,
                          2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f,
                          9.2233720e18f, 1.8446743e19f, 3.4028235e38f, -3.4028235e38f, INFINITY, -INFINITY, NAN,
                          1e10f, -1e10f, 123456.789f, 0.1f, 0.3333333f};
  const int count = sizeof inputs / sizeof inputs[0];
  float* in;
  unsigned long long* out;
  cudaMalloc(&in, sizeof inputs);
  cudaMalloc(&out, count * ops * sizeof(unsigned long long));
  cudaMemcpy(in, inputs, sizeof inputs, cudaMemcpyHostToDevice);
  apply<<<(count + 31) / 32, 32>>>(in, out, count);
  static unsigned long long results[sizeof inputs / sizeof inputs[0] * ops];
  const cudaError_t status = cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost);
  std::printf("edge values: %s\n", cudaGetErrorName(status));
  for (int k = 0; k < count; ++k) {
    unsigned int input_bits;
    std::memcpy(&input_bits, &inputs[k], sizeof input_bits);
    std::printf("input %08x (%g):", input_bits, inputs[k]);
    for (int i = 0; i < ops; ++i) {
      const unsigned long long v = results[k * ops + i];
      const bool nan = (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) != 0 && v <= 0xffffffffu;
      if (i >= first_libm && i <= last_libm && nan) std::printf(" nan");
      else std::printf(" %llx", v);
    }
    std::printf("\n");
  }
  return 0;
}
