// Integer intrinsics over edge operands (0, 1, all ones, the sign bit,
// shifts of 32 and more, byte selectors past 7), and device printf of
// special values in every conversion: a differential test whose golden an
// H100 recorded (tests/differential.txt).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

constexpr int ops = 30;

__global__ void integers(const unsigned* in, unsigned long long* out, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const unsigned x = in[k], y = in[(k + 1) % count];
  const unsigned long long wide = (unsigned long long)x << 32 | y;
  unsigned long long* r = out + k * ops;
  int i = 0;
  r[i++] = __popc(x);
  r[i++] = __popcll(wide);
  r[i++] = __clz(int(x));
  r[i++] = __clzll((long long)wide);
  r[i++] = __ffs(int(x));
  r[i++] = __ffsll((long long)wide);
  r[i++] = __brev(x);
  r[i++] = __brevll(wide);
  r[i++] = __byte_perm(x, y, y);  // selectors past 7 use their low three bits
  r[i++] = __funnelshift_l(x, y, y);
  r[i++] = __funnelshift_lc(x, y, y);
  r[i++] = __funnelshift_r(x, y, y);
  r[i++] = __funnelshift_rc(x, y, y);
  r[i++] = unsigned(__mul24(int(x), int(y)));
  r[i++] = __umul24(x, y);
  r[i++] = unsigned(__mulhi(int(x), int(y)));
  r[i++] = __umulhi(x, y);
  r[i++] = (unsigned long long)__mul64hi((long long)wide, (long long)~wide);
  r[i++] = __umul64hi(wide, ~wide);
  r[i++] = __sad(int(x), int(y), 7u);
  r[i++] = __usad(x, y, 7u);
  r[i++] = unsigned(__hadd(int(x), int(y)));
  r[i++] = unsigned(__rhadd(int(x), int(y)));
  r[i++] = __uhadd(x, y);
  r[i++] = __urhadd(x, y);
  r[i++] = unsigned(min(int(x), int(y))) ^ max(x, y);
  r[i++] = unsigned(abs(int(x) >> 1));  // abs(INT_MIN) is undefined behaviour: left out
  r[i++] = (unsigned long long)llabs((long long)wide);
  r[i++] = unsigned(int(x) >> (y & 31)) ^ (x << (y & 31));
  r[i++] = unsigned(__float_as_int(__int_as_float(int(x))));
}

// One thread, so that the lines come in order.
__global__ void special_values() {
  const float values[] = {0.0f, -0.0f, 1.0f / 3.0f, -2.5f, 1e-45f, 3.4028235e38f, INFINITY, -INFINITY, NAN, -NAN};
  for (float v : values) {
    printf("%f | %e | %g | %.3f | %10.2e | %-8g| %+g | %a\n", v, v, v, v, v, v, v, v);
  }
  const double d = 1.0 / 3.0;
  printf("%.17g %.0f %.20f %lld %llu %x %o %c|%5s|%-5s|%%\n", d, 2.5, 0.1, -1ll, ~0ull, 255u, 8u, 'A', "ab", "cd");
  printf("%d %i %u %ld\n", -7, 42, 4000000000u, -1l);
  // (An H100 prints %hhu of 44 as 37: the hh modifier is left out.)
  printf("%hd %hu\n", (short)-2, (unsigned short)70000);
  printf("%5d|%-5d|%05d %+d\n", 3, 4, 5, 6);
}

int main() {
  const unsigned inputs[] = {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 31u, 32u, 33u, 63u, 64u, 0x00ff00ffu,
                             0x12345678u, 0xdeadbeefu, 0x76543210u, 0x89abcdefu, 0x00800000u, 0xff800000u, 7u, 8u, 15u};
  const int count = sizeof inputs / sizeof inputs[0];
  unsigned* in;
  unsigned long long* out;
  cudaMalloc(&in, sizeof inputs);
  cudaMalloc(&out, count * ops * sizeof(unsigned long long));
  cudaMemcpy(in, inputs, sizeof inputs, cudaMemcpyHostToDevice);
  integers<<<1, 32>>>(in, out, count);
  static unsigned long long results[sizeof inputs / sizeof inputs[0] * ops];
  std::printf("integers: %s\n",
              cudaGetErrorName(cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost)));
  for (int k = 0; k < count; ++k) {
    std::printf("input %08x:", inputs[k]);
    for (int i = 0; i < ops; ++i) std::printf(" %llx", results[k * ops + i]);
    std::printf("\n");
  }
  special_values<<<1, 1>>>();
  std::printf("printf: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
