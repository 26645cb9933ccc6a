// Inline PTX (asm statements in device code) over edge operands: special
// registers, integer and bit instructions, carry chains, conversions with
// rounding and saturation, float arithmetic, loads, stores and atomics,
// predicates and branches, and the warp and block instructions. A
// differential test: an H100 recorded the golden (tests/differential.txt).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

constexpr int threads = 32;
constexpr int ops = 48;

__device__ unsigned special_registers(unsigned* r) {
  unsigned lane, warp, lt, le, gt, ge, eq, tid, ntid, ctaid, nctaid, dyn;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("mov.u32 %0, %%lanemask_lt;\n\tmov.u32 %1, %%lanemask_le;" : "=r"(lt), "=r"(le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
  asm("mov.u32 %0, %%ntid.x;" : "=r"(ntid));
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(ctaid));
  asm("mov.u32 %0, %%nctaid.x;" : "=r"(nctaid));
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  int i = 0;
  r[i++] = lane;
  r[i++] = warp;
  r[i++] = lt;
  r[i++] = le;
  r[i++] = gt;
  r[i++] = ge;
  r[i++] = eq;
  r[i++] = tid * 1000000 + ntid * 10000 + ctaid * 100 + nctaid;
  r[i++] = dyn;
  return i;
}

__global__ void integer_ops(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned dynamic[];
  const int k = threadIdx.x;
  const unsigned x = in[k], y = in[(k + 1) % threads], z = in[(k + 7) % threads];
  unsigned* r = out + k * ops;
  int i = special_registers(r);
  unsigned a, b;
  // A 64-bit add and subtract from 32-bit halves through the carry flag.
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %3, %2;" : "=r"(a), "=r"(b) : "r"(x), "r"(y));
  r[i++] = a;
  r[i++] = b;
  asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %3, %2;" : "=r"(a), "=r"(b) : "r"(x), "r"(y));
  r[i++] = a;
  r[i++] = b;
  asm("mul.hi.s32 %0, %2, %3;\n\tmul.hi.u32 %1, %2, %3;" : "=r"(a), "=r"(b) : "r"(x), "r"(y));
  r[i++] = a;
  r[i++] = b;
  unsigned long long wide;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(wide) : "r"(x), "r"(y));
  r[i++] = unsigned(wide >> 32) ^ unsigned(wide);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("bfind.u32 %0, %2;\n\tbfind.s32 %1, %2;" : "=r"(a), "=r"(b) : "r"(x));
  r[i++] = a;
  r[i++] = b;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(a) : "r"(x));
  r[i++] = a;
  asm("brev.b32 %0, %2;\n\tpopc.b32 %1, %2;" : "=r"(a), "=r"(b) : "r"(x));
  r[i++] = a;
  r[i++] = b;
  asm("clz.b32 %0, %1;" : "=r"(a) : "r"(x));
  r[i++] = a;
  asm("bfe.u32 %0, %2, %3, %4;\n\tbfe.s32 %1, %2, %3, %4;" : "=r"(a), "=r"(b) : "r"(x), "r"(y & 31), "r"(z & 31));
  r[i++] = a;
  r[i++] = b;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(a) : "r"(x), "r"(y), "r"(z & 31), "r"((z >> 8) & 31));
  r[i++] = a;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(a) : "r"(x), "r"(y), "r"(z));
  r[i++] = a;
  asm("shf.l.wrap.b32 %0, %2, %3, %4;\n\tshf.r.clamp.b32 %1, %2, %3, %4;" : "=r"(a), "=r"(b) : "r"(x), "r"(y), "r"(z & 63));
  r[i++] = a;
  r[i++] = b;
  asm("shl.b32 %0, %2, %3;\n\tshr.s32 %1, %2, %3;" : "=r"(a), "=r"(b) : "r"(x), "r"(y & 63));
  r[i++] = a;
  r[i++] = b;
  asm("min.s32 %0, %2, %3;\n\tmax.u32 %1, %2, %3;" : "=r"(a), "=r"(b) : "r"(x), "r"(y));
  r[i++] = a ^ b;
  asm("abs.s32 %0, %2;\n\tneg.s32 %1, %2;" : "=r"(a), "=r"(b) : "r"(x));
  r[i++] = a ^ (b << 1);
  // Predicates: set, combine through selp, guard, branch.
  asm("{\n\t.reg .pred p, q;\n\t"
      "setp.lt.s32 p, %1, %2;\n\t"
      "setp.lo.u32 q, %1, %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q add.u32 %0, %0, 2;\n\t"
      "@!q add.u32 %0, %0, 4;\n\t}"
      : "=r"(a) : "r"(x), "r"(y));
  r[i++] = a;
  // A loop in PTX: the sum of the set bits' positions.
  asm("{\n\t.reg .u32 t, n, bit;\n\t.reg .pred done, set;\n\t"
      "mov.u32 %0, 0;\n\tmov.u32 n, 0;\n\tmov.u32 t, %1;\n"
      "LOOP:\n\t"
      "setp.eq.u32 done, t, 0;\n\t"
      "@done bra END;\n\t"
      "and.b32 bit, t, 1;\n\t"
      "setp.ne.u32 set, bit, 0;\n\t"
      "@set add.u32 %0, %0, n;\n\t"
      "shr.u32 t, t, 1;\n\t"
      "add.u32 n, n, 1;\n\t"
      "bra LOOP;\n"
      "END:\n\t}" : "=r"(a) : "r"(x));
  r[i++] = a;
  dynamic[k] = a;
  // SIMD video instructions: per byte or half, summed with .add.
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(z & 0xff));
  r[i++] = a;
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(0u));
  r[i++] = a;
  asm("vmax2.s32.s32.s32 %0, %1, %2, %3;" : "=r"(a) : "r"(x), "r"(y), "r"(0u));
  r[i++] = a;
}

// Conversions, float arithmetic, memory and atomics.
__global__ void float_and_memory(const unsigned* in, unsigned* out, unsigned* counters) {
  const int k = threadIdx.x;
  const unsigned x = in[k], y = in[(k + 1) % threads];
  const float f = __uint_as_float(x) , g = __uint_as_float(y);
  unsigned* r = out + k * ops;
  int i = 0;
  int n;
  unsigned u;
  float h;
  unsigned long long dd;
  unsigned short half;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(n) : "f"(f));
  r[i++] = unsigned(n);
  asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(u) : "f"(f));
  r[i++] = u;
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(n) : "f"(f * 1e-3f));
  r[i++] = unsigned(n);
  asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(n) : "f"(f * 1e-3f));
  r[i++] = unsigned(n);
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(h) : "r"(x));
  r[i++] = __float_as_uint(h);
  asm("cvt.rz.f32.u32 %0, %1;" : "=f"(h) : "r"(x));
  r[i++] = __float_as_uint(h);
  asm("cvt.s8.s32 %0, %1;" : "=r"(n) : "r"(x));
  r[i++] = unsigned(n);
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(u) : "r"(x));
  r[i++] = u;
  asm("cvt.sat.s16.s32 %0, %1;" : "=r"(n) : "r"(x));
  r[i++] = unsigned(n);
  asm("cvt.u64.s32 %0, %1;" : "=l"(dd) : "r"(x));
  r[i++] = unsigned(dd >> 32);
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(half) : "f"(f));
  r[i++] = half;
  asm("cvt.f32.f16 %0, %1;" : "=f"(h) : "h"((unsigned short)(x & 0xffff)));
  r[i++] = __float_as_uint(h);
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(h) : "d"(double(x) / 3.0));
  r[i++] = __float_as_uint(h);
  asm("add.rn.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("fma.rn.f32 %0, %1, %2, %1;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("sqrt.rn.f32 %0, %1;" : "=f"(h) : "f"(f));
  r[i++] = __float_as_uint(h);
  asm("div.rn.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("min.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("abs.f32 %0, %1;" : "=f"(h) : "f"(f));
  r[i++] = __float_as_uint(h);
  asm("neg.f32 %0, %1;" : "=f"(h) : "f"(f));
  r[i++] = __float_as_uint(h);
  asm("add.f32 %0, %1, 0f3F800000;" : "=f"(h) : "f"(f));
  r[i++] = __float_as_uint(h);
  asm("{\n\t.reg .pred p;\n\tsetp.gtu.f32 p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(u) : "f"(f), "f"(g));
  r[i++] = u;
  // Loads and stores, scalar and vector, with an offset.
  unsigned v0, v1, v2, v3;
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(in + (k & ~3)));
  r[i++] = v0 ^ v1 ^ v2 ^ v3;
  asm volatile("ld.global.nc.u32 %0, [%1+8];" : "=r"(u) : "l"(in + (k & 15)));
  r[i++] = u;
  unsigned long long packed;
  asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(x), "r"(y));
  asm("mov.b64 {%0, %1}, %2;" : "=r"(v0), "=r"(v1) : "l"(packed ^ 0xff00ff00ff00ffull));
  r[i++] = v0;
  r[i++] = v1;
  asm volatile("st.global.u32 [%0+4], %1;" :: "l"(out + k * ops + i), "r"(x ^ 0x5a5a5a5au));
  i += 2;
  // Atomics: every thread adds, counts, exchanges; one wins the CAS.
  asm volatile("red.global.add.u32 [%0], %1;" :: "l"(counters), "r"(k));
  asm volatile("atom.global.inc.u32 %0, [%1], 1000;" : "=r"(u) : "l"(counters + 1));
  asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(n) : "l"(counters + 2), "r"(x));
  asm volatile("atom.global.cas.b32 %0, [%1], 0, %2;" : "=r"(u) : "l"(counters + 3), "r"(k + 1));
  asm volatile("membar.gl;\n\tfence.acq_rel.gpu;" ::: "memory");
  // Directed rounding, and the scalar video instructions CUB uses.
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
  r[i++] = __float_as_uint(h);
  asm("fma.rm.f32 %0, %1, %2, %3;" : "=f"(h) : "f"(f), "f"(g), "f"(1.0f / 3.0f));
  r[i++] = __float_as_uint(h);
  asm("vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(u) : "r"(x), "r"(y & 63), "r"(7u));
  r[i++] = u;
  asm("vshl.u32.u32.u32.wrap.add %0, %1, %2, %3;" : "=r"(u) : "r"(x), "r"(y), "r"(x));
  r[i++] = u;
  asm("vadd.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(u) : "r"(x), "r"(y), "r"(0u));
  r[i++] = u;
}

// Warp and block instructions.
__global__ void warp_ops(const unsigned* in, unsigned* out) {
  const int k = threadIdx.x;
  const unsigned x = in[k];
  unsigned* r = out + k * ops;
  int i = 0;
  unsigned a, b;
  asm volatile("shfl.sync.down.b32 %0, %1, 3, 0x1f, 0xffffffff;" : "=r"(a) : "r"(x));
  r[i++] = a;
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0x1800, 0xffffffff;" : "=r"(a) : "r"(x));  // width 8
  r[i++] = a;
  asm volatile("{\n\t.reg .pred p;\n\tshfl.sync.bfly.b32 %0|p, %2, 5, 0x181f, 0xffffffff;\n\tselp.u32 %1, 1, 0, p;\n\t}"
               : "=r"(a), "=r"(b) : "r"(x));
  r[i++] = a;
  r[i++] = b;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(a) : "r"(x), "r"(x & 31));
  r[i++] = a;
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(a) : "r"(x & 1));
  r[i++] = a;
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.any.pred q, p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(a) : "r"(x & 0x80000000u));
  r[i++] = a;
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(a) : "r"(unsigned(k < 40)));
  r[i++] = a;
  asm volatile("activemask.b32 %0;" : "=r"(a));
  r[i++] = a;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(a) : "r"(x & 3));
  r[i++] = a;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(a) : "r"(x));
  r[i++] = a;
  asm volatile("redux.sync.max.s32 %0, %1, 0xffffffff;" : "=r"(a) : "r"(x));
  r[i++] = a;
  asm volatile("bar.sync 0;");
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tbar.red.popc.u32 %0, 0, p;\n\t}" : "=r"(a) : "r"(x & 2));
  r[i++] = a;
  asm volatile("barrier.sync 0, %0;" :: "r"(threads));
  asm volatile("bar.warp.sync 0xffffffff;");
}

void print_results(const char* kernel, cudaError_t status, const unsigned* out, int columns) {
  std::printf("%s: %s\n", kernel, cudaGetErrorName(status));
  for (int k = 0; k < threads; ++k) {
    std::printf("%2d:", k);
    for (int i = 0; i < columns; ++i) std::printf(" %x", out[k * ops + i]);
    std::printf("\n");
  }
}

int main() {
  const unsigned values[threads] = {0u,          1u,          0xffffffffu, 0x80000000u, 0x7fffffffu, 2u,
                                    31u,         32u,         33u,         0x12345678u, 0xdeadbeefu, 0x00ff00ffu,
                                    0xf0f0f0f0u, 100u,        63u,         64u,         0xfffffffeu, 7u,
                                    0x80000001u, 0x55555555u, 0xaaaaaaaau, 12345u,      0x0000ffffu, 0xffff0000u,
                                    3u,          0x40000000u, 17u,         0x1234u,     0x87654321u, 5u,
                                    0x7ffffffeu, 0x3u};
  unsigned *in, *out;
  cudaMallocManaged(&in, sizeof values);
  cudaMallocManaged(&out, threads * ops * sizeof(unsigned));
  std::memcpy(in, values, sizeof values);
  std::memset(out, 0, threads * ops * sizeof(unsigned));
  integer_ops<<<1, threads, 100>>>(in, out);
  print_results("integer_ops", cudaDeviceSynchronize(), out, 47);

  unsigned* counters;
  cudaMallocManaged(&counters, 4 * sizeof(unsigned));
  std::memset(counters, 0, 4 * sizeof(unsigned));
  std::memset(out, 0, threads * ops * sizeof(unsigned));
  float_and_memory<<<1, threads>>>(in, out, counters);
  print_results("float_and_memory", cudaDeviceSynchronize(), out, 36);
  std::printf("counters: %u %u %x %s\n", counters[0], counters[1], counters[2],
              counters[3] >= 1 && counters[3] <= threads ? "one CAS won" : "no CAS won");

  std::memset(out, 0, threads * ops * sizeof(unsigned));
  warp_ops<<<1, threads>>>(in, out);
  print_results("warp_ops", cudaDeviceSynchronize(), out, 13);
  return 0;
}
