// CUDA 12's DPX intrinsics, min/max on long and mixed signedness, the
// __nv_atomic_* built-ins of CUDA 12.8 and <cuda_fp8.h>, against the values
// the CUDA Math API and Programming Guide define. Prints each group's
// results and PASSED when all match.
#include <cmath>
#include <cstdio>
#include <cuda_fp8.h>
#include <type_traits>

constexpr int dpx_results = 29;
const unsigned expected_dpx[dpx_results] = {
    7, (unsigned)-3, 0xffffffffu, 1, 5, 4, 0, 6, 0, 4, 0, 2, 1,
    0x00020003u, 0x0002ffffu, 0x0000fffeu, 0x00000003u, 0x00000002u, 0x00000004u, 0x00000003u, 0x00020000u,
    0x00020002u, 9, 0, 3, 1, 0x00010001u, 0x1u /* pred_hi, pred_lo = 0, 1 */, 0x00000101u /* both set */};
__global__ void dpx(unsigned* out) {
  bool p, hi, lo;
  unsigned r[dpx_results] = {
      (unsigned)__vimax3_s32(1, 7, -3), (unsigned)__vimin3_s32(1, 7, -3), __vimax3_u32(1, 0xffffffffu, 3),
      __vimin3_u32(1, 0xffffffffu, 3), (unsigned)__viaddmax_s32(2, 3, 4), (unsigned)__viaddmin_s32(2, 3, 4),
      (unsigned)__viaddmax_s32_relu(-2, -3, -4), (unsigned)__viaddmin_s32_relu(5, 1, 7),
      (unsigned)__vimax3_s32_relu(-1, -2, -3), (unsigned)__vimin3_s32_relu(4, 5, 6),
      (unsigned)__vimax_s32_relu(-5, -2), (unsigned)__vimin_s32_relu(5, 2), __viaddmax_u32(0xffffffffu, 2, 0),
      __vimax3_s16x2(0x0001ffffu, 0x00020003u, 0x0000fffeu), __vimax3_u16x2(0x0001ffffu, 0x00020003u, 0x0000fffeu),
      __vimin3_s16x2(0x0001ffffu, 0x00020003u, 0x0000fffeu), __vimin3_u16x2(0x0001ffffu, 0x00020003u, 0x0000fffeu),
      __viaddmax_s16x2(0x7fff0001u, 0x00010001u, 0x00000001u), __viaddmin_s16x2_relu(0x00050003u, 0x00010001u, 0xfff00010u),
      __vimax_s16x2_relu(0xfffe0003u, 0xffff0001u), __vimin_s16x2_relu(0x00050003u, 0x0002ffffu),
      __viaddmin_u16x2(0x00010002u, 0x00010001u, 0x00050002u), 0, 0, 0, 0, 0, 0, 0};
  r[22] = (unsigned)__vibmax_s32(3, 9, &p);
  r[23] = p;
  r[24] = __vibmin_u32(3, 9, &p);
  r[25] = p;
  r[26] = __vibmax_s16x2(0x0001ffffu, 0x00000001u, &hi, &lo);
  r[27] = hi * 2u + lo;
  // The halves' flags, as an H200 sets them: b >= a for max, b <= a for
  // min (the documentation says a >= b, as the 32-bit forms set it).
  r[28] = __vibmin_u16x2(0x0001ffffu, 0x00000001u, &hi, &lo);
  r[28] |= hi && lo ? 0x100u : 0u;
  for (int i = 0; i < dpx_results; ++i) out[i] = r[i];
}

// min and max: CUDA's overloads and the types they return.
static_assert(std::is_same<decltype(min(1ul, 2l)), unsigned long>::value, "min(unsigned long, long)");
static_assert(std::is_same<decltype(max(1l, 2l)), long>::value, "max(long, long)");
static_assert(std::is_same<decltype(min(1u, 2)), unsigned int>::value, "min(unsigned, int)");
static_assert(std::is_same<decltype(min(1ll, 2ll)), long long>::value, "min(long long, long long)");
__global__ void extremes(unsigned long* out) {
  out[0] = min(static_cast<size_t>(3), static_cast<size_t>(5));
  out[1] = max(7l, 9l);
  out[2] = min(5ul, 3l);
  out[3] = max(-1l, 1ul);  // -1 as unsigned long: the largest
  out[4] = static_cast<unsigned long>(min(2, 3) + max(2u, 3u) + min(4, 5u) + min(1.5f, 2.f) + max(6ll, 7ll));
}

struct counters {
  int added, min, max, xored, swapped, exchanged, returned;
  unsigned subtracted, anded;
  unsigned long long ored, stored, loaded;
  float sum;
};
__global__ void atomics(counters* c) {
  const int t = threadIdx.x;
  __nv_atomic_fetch_add(&c->added, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_sub(&c->subtracted, 2u, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_fetch_min(&c->min, t - 10, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_fetch_max(&c->max, t, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_fetch_or(&c->ored, 1ull << t, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_fetch_and(&c->anded, ~(1u << (t % 32)), __NV_ATOMIC_ACQUIRE);
  if (t < 33) __nv_atomic_fetch_xor(&c->xored, 3, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(&c->sum, 0.5f, __NV_ATOMIC_RELAXED);
  int old = __nv_atomic_load_n(&c->swapped, __NV_ATOMIC_RELAXED);
  while (!__nv_atomic_compare_exchange_n(&c->swapped, &old, old + 2, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED)) {
  }
  __nv_atomic_fetch_add(&c->returned, __nv_atomic_exchange_n(&c->exchanged, t, __NV_ATOMIC_ACQ_REL), __NV_ATOMIC_RELAXED);
  if (t == 0) {
    unsigned long long v = 42, r = 0;
    __nv_atomic_store(&c->stored, &v, __NV_ATOMIC_RELEASE);
    __nv_atomic_load(&c->stored, &r, __NV_ATOMIC_ACQUIRE);
    __nv_atomic_store_n(&c->loaded, r + 1, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER);
  }
}

// fp8: the bits of conversions, and values back.
constexpr int fp8_results = 27;
const unsigned expected_fp8[fp8_results] = {
    0x2a, 0x7e, 0x7e, 0x7f, 0x7e, 0x7f, 0xfe, 0x7c, 0x7b, 0x3c, 0x7b, 0x7f, 0x01, 0x00, 0x01, 0x02,
    0x5f00, 0x3c00, 3, 0xc038, 0xb0304038u, 0x403c, 0x40003c00u, (unsigned)-3, 3, 7, 1};
__global__ void fp8(unsigned* out, float* value) {
  const __nv_fp8_e4m3 q(0.3f);
  const __nv_fp8x2_e4m3 pair(make_float2(1.f, -2.f));
  const __half2_raw halves = __nv_cvt_fp8x2_to_halfraw2(0x403c, __NV_E5M2);
  const unsigned r[fp8_results] = {
      q.__x, __nv_fp8_e4m3(448.f).__x, __nv_fp8_e4m3(1000.f).__x,
      __nv_cvt_float_to_fp8(1000.f, __NV_NOSAT, __NV_E4M3), __nv_cvt_float_to_fp8(464.f, __NV_NOSAT, __NV_E4M3),
      __nv_cvt_float_to_fp8(465.f, __NV_NOSAT, __NV_E4M3), __nv_cvt_float_to_fp8(-1000.f, __NV_SATFINITE, __NV_E4M3),
      __nv_cvt_float_to_fp8(1e6f, __NV_NOSAT, __NV_E5M2), __nv_cvt_double_to_fp8(1e6, __NV_SATFINITE, __NV_E5M2),
      __nv_fp8_e5m2(1.0).__x, __nv_cvt_float_to_fp8(INFINITY, __NV_SATFINITE, __NV_E5M2),
      __nv_cvt_float_to_fp8(NAN, __NV_NOSAT, __NV_E4M3) & 0x7fu,
      __nv_fp8_e4m3(0.001953125f).__x, __nv_fp8_e4m3(0.0009765625f).__x, __nv_fp8_e4m3(0.00146484375f).__x,
      __nv_fp8_e4m3(0.0029296875f).__x,
      __nv_cvt_fp8_to_halfraw(0x7e, __NV_E4M3).x, __nv_cvt_fp8_to_halfraw(0x3c, __NV_E5M2).x,
      (unsigned)float(__nv_fp8_e5m2(__float2half(3.0f))), pair.__x,
      __nv_fp8x4_e4m3(make_float4(1.f, 2.f, 0.5f, -0.5f)).__x,
      __nv_cvt_float2_to_fp8x2(make_float2(1.f, 2.f), __NV_SATFINITE, __NV_E5M2), halves.x | (unsigned)halves.y << 16,
      (unsigned)(int)__nv_fp8_e4m3(-3.5f), (unsigned)(int)__nv_fp8_e4m3(3.4f), (unsigned)(int)__nv_fp8_e4m3(7),
      (unsigned)(float2(pair).y == -2.f)};
  for (int i = 0; i < fp8_results; ++i) out[i] = r[i];
  *value = float(q);
}

int check(const char* what, const unsigned* got, const unsigned* expected, int n) {
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    if (got[i] != expected[i]) {
      std::printf("%s result %d: %#x, expected %#x\n", what, i, got[i], expected[i]);
      ++failures;
    }
  }
  return failures;
}

int main() {
  unsigned* out;
  cudaMallocManaged(&out, 64 * sizeof(unsigned));
  dpx<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  std::printf("dpx: __vimax3_s32(1, 7, -3) = %d, __viaddmin_u16x2 = %#x\n", (int)out[0], out[21]);
  int failures = check("dpx", out, expected_dpx, dpx_results);

  unsigned long* longs;
  cudaMallocManaged(&longs, 5 * sizeof(unsigned long));
  extremes<<<1, 1>>>(longs);
  cudaDeviceSynchronize();
  std::printf("min/max: %lu %lu %lu %#lx %lu\n", longs[0], longs[1], longs[2], longs[3], longs[4]);
  const unsigned long expected_longs[5] = {3, 9, 3, ~0ul, 2 + 3 + 4 + 1 + 7};
  for (int i = 0; i < 5; ++i) failures += longs[i] != expected_longs[i];

  counters* c;
  cudaMallocManaged(&c, sizeof(counters));
  *c = counters{0, 100, -1, 0, 0, 1000, 0, 1000u, ~0u, 0, 0, 0, 0.f};
  atomics<<<1, 64>>>(c);
  cudaDeviceSynchronize();
  std::printf("atomics: added %d subtracted %u min %d max %d ored %#llx anded %#x xored %d sum %g swapped %d "
              "exchanged+returned %d stored %llu loaded %llu\n",
              c->added, c->subtracted, c->min, c->max, c->ored, c->anded, c->xored, c->sum, c->swapped,
              c->exchanged + c->returned, c->stored, c->loaded);
  failures += c->added != 64 || c->subtracted != 872 || c->min != -10 || c->max != 63 || c->ored != ~0ull ||
              c->anded != 0 || c->xored != 3 || c->sum != 32.f || c->swapped != 128 ||
              c->exchanged + c->returned != 1000 + 2016 || c->stored != 42 || c->loaded != 43;

  float* value;
  cudaMallocManaged(&value, sizeof(float));
  fp8<<<1, 1>>>(out, value);
  cudaDeviceSynchronize();
  std::printf("fp8: e4m3(0.3) = %#x = %g, e4m3(1000, no saturation) = %#x\n", out[0], *value, out[3]);
  failures += check("fp8", out, expected_fp8, fp8_results) + (*value != 0.3125f);
  std::printf("dpx, min/max, atomics, fp8: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
