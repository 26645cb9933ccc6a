// The SIMD-within-a-word intrinsics (two 16-bit or four 8-bit lanes) and
// the byte dot products __dp4a / __dp2a over edge lane values (0, 1, the
// largest and smallest signed and unsigned, mixed signs), printed in hex: a
// differential test whose golden an H100 recorded (tests/differential.txt).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int ops = 88;

__global__ void simd(const unsigned* in, unsigned* out, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const unsigned a = in[k], b = in[(k + 3) % count];
  unsigned* r = out + k * ops;
  int i = 0;
#define BOTH(op) r[i++] = op##2(a, b); r[i++] = op##4(a, b);
#define BOTH_UNARY(op) r[i++] = op##2(a); r[i++] = op##4(a);
  BOTH(__vadd) BOTH(__vaddss) BOTH(__vaddus) BOTH(__vsub) BOTH(__vsubss) BOTH(__vsubus)
  BOTH(__vabsdiffs) BOTH(__vabsdiffu) BOTH(__vavgs) BOTH(__vavgu) BOTH(__vhaddu)
  BOTH(__vmaxs) BOTH(__vmaxu) BOTH(__vmins) BOTH(__vminu) BOTH(__vsads) BOTH(__vsadu)
  BOTH_UNARY(__vabs) BOTH_UNARY(__vabsss) BOTH_UNARY(__vneg) BOTH_UNARY(__vnegss)
  BOTH(__vcmpeq) BOTH(__vcmpne) BOTH(__vcmpges) BOTH(__vcmpgeu) BOTH(__vcmpgts) BOTH(__vcmpgtu)
  BOTH(__vcmples) BOTH(__vcmpleu) BOTH(__vcmplts) BOTH(__vcmpltu)
  BOTH(__vseteq) BOTH(__vsetne) BOTH(__vsetges) BOTH(__vsetgeu) BOTH(__vsetgts) BOTH(__vsetgtu)
  BOTH(__vsetles) BOTH(__vsetleu) BOTH(__vsetlts) BOTH(__vsetltu)
#undef BOTH
#undef BOTH_UNARY
  r[i++] = unsigned(__dp4a(int(a), int(b), 1000));
  r[i++] = __dp4a(a, b, 1000u);
  r[i++] = unsigned(__dp2a_lo(int(a), int(b), -7));
  r[i++] = __dp2a_lo(a, b, 7u);
  r[i++] = unsigned(__dp2a_hi(int(a), int(b), -7));
  r[i++] = __dp2a_hi(a, b, 7u);
}

int main() {
  const unsigned inputs[] = {0x00000000u, 0x00010001u, 0xffffffffu, 0x7fff7fffu, 0x80008000u, 0x7f7f7f7fu,
                             0x80808080u, 0x01ff7f80u, 0xfe02817fu, 0x12345678u, 0x89abcdefu, 0x00ff00ffu,
                             0xff00ff00u, 0x7fff8000u, 0x8001fffeu, 0x01020304u};
  const int count = sizeof inputs / sizeof inputs[0];
  unsigned* in;
  unsigned* out;
  cudaMalloc(&in, sizeof inputs);
  cudaMalloc(&out, count * ops * sizeof(unsigned));
  cudaMemcpy(in, inputs, sizeof inputs, cudaMemcpyHostToDevice);
  simd<<<1, 32>>>(in, out, count);
  static unsigned results[sizeof inputs / sizeof inputs[0] * ops];
  std::printf("simd: %s\n", cudaGetErrorName(cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost)));
  for (int k = 0; k < count; ++k) {
    std::printf("input %08x:", inputs[k]);
    for (int i = 0; i < ops; ++i) std::printf(" %x", results[k * ops + i]);
    std::printf("\n");
  }
  return 0;
}
