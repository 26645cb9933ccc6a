// cuRAND's device API: each generator's integers, uniform values (as bit
// patterns) and normal values for several seeds, subsequences and offsets,
// printed for comparison with an H100 (diff.curand_device), and the
// self-checks a GPU also passes: curand_init's subsequence and offset equal
// the matching skipahead calls and draws, and the distributions have the
// right moments.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <curand_kernel.h>

constexpr int draws = 6;

struct start {
  unsigned long long seed, subsequence, offset;
};
__constant__ start starts[] = {{0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 3, 5}, {0xfedcba9876543210ull, 1000003, 77},
                               {42, 1ull << 40, 1ull << 33}};
constexpr int start_count = sizeof(starts) / sizeof(starts[0]);

struct record {
  unsigned int bits[draws];
  unsigned int uniform[draws];
  unsigned long long uniform_double[draws];
  float normal[draws];
  double normal_double[draws];
  float log_normal[2];
  float2 normal2;
};

template <class State>
__global__ void draw(record* out) {
  const start s = starts[threadIdx.x];
  State state;
  record& r = out[threadIdx.x];
  curand_init(s.seed, s.subsequence, s.offset, &state);
  for (int i = 0; i < draws; ++i) r.bits[i] = curand(&state);
  for (int i = 0; i < draws; ++i) r.uniform[i] = __float_as_uint(curand_uniform(&state));
  for (int i = 0; i < draws; ++i) r.uniform_double[i] = __double_as_longlong(curand_uniform_double(&state));
  for (int i = 0; i < draws; ++i) r.normal[i] = curand_normal(&state);
  for (int i = 0; i < draws; ++i) r.normal_double[i] = curand_normal_double(&state);
  for (int i = 0; i < 2; ++i) r.log_normal[i] = curand_log_normal(&state, 0.5f, 0.25f);
  r.normal2 = curand_normal2(&state);
}

// The same stream reached three ways: by curand_init's arguments, by
// skipahead calls, and (for the offset) by drawing.
template <class State>
__device__ bool positions_agree(unsigned long long seed, unsigned long long subsequence, unsigned int offset) {
  State by_init, by_skip, by_drawing;
  curand_init(seed, subsequence, offset, &by_init);
  curand_init(seed, 0, 0, &by_skip);
  if constexpr (std::is_same_v<State, curandStateMRG32k3a_t>) {
    skipahead_subsequence(subsequence, &by_skip);
  } else {
    skipahead_sequence(subsequence, &by_skip);
  }
  skipahead(offset, &by_skip);
  curand_init(seed, subsequence, 0, &by_drawing);
  for (unsigned int i = 0; i < offset; ++i) curand(&by_drawing);
  bool agree = true;
  for (int i = 0; i < 8; ++i) {
    const unsigned int a = curand(&by_init), b = curand(&by_skip), c = curand(&by_drawing);
    agree = agree && a == b && a == c;
  }
  return agree;
}

// The first value after jumps that should land on the same element: XORWOW's
// subsequence 1 and 16 skips of 2^63 elements (2^67); MRG32k3a's
// subsequence 1 and 8192 skips of 2^63 (2^76), and its sequence 1 (2^127,
// printed alone: cuRAND 13.0 on the H100 gives 4294967295 after
// skipahead_subsequence(2^51), which lands on the same element).
__global__ void strides(unsigned int* out) {
  curandStateXORWOW_t x;
  curand_init(99, 1, 0, &x);
  out[0] = curand(&x);
  curand_init(99, 0, 0, &x);
  for (int i = 0; i < 16; ++i) skipahead(1ull << 63, &x);
  out[1] = curand(&x);
  curandStateMRG32k3a_t m;
  curand_init(7, 1, 0, &m);
  out[2] = curand(&m);
  curand_init(7, 0, 0, &m);
  for (int i = 0; i < 8192; ++i) skipahead(1ull << 63, &m);
  out[3] = curand(&m);
  curand_init(7, 0, 0, &m);
  skipahead_sequence(1, &m);
  out[4] = curand(&m);
}

template <class State>
__global__ void check_positions(int* ok) {
  const start s = starts[threadIdx.x];
  if (!positions_agree<State>(s.seed, s.subsequence, static_cast<unsigned int>(s.offset % 1000))) atomicAnd(ok, 0);
}

// The 100000th value of a stream, drawn one by one and reached by skipahead:
// a long stream meets every corner of a generator's arithmetic.
template <class State>
__global__ void long_stream(unsigned int* out) {
  State drawn, skipped;
  curand_init(31337, 5, 0, &drawn);
  curand_init(31337, 5, 0, &skipped);
  for (int i = 0; i < 99999; ++i) curand(&drawn);
  skipahead(99999, &skipped);
  out[0] = curand(&drawn);
  out[1] = curand(&skipped);
}

// Moments over 256 threads x 512 draws each.
template <class State>
__global__ void moments(double* sums) {
  State state;
  curand_init(2024, blockIdx.x * blockDim.x + threadIdx.x, 0, &state);
  double u = 0, uu = 0, n = 0, nn = 0;
  for (int i = 0; i < 512; ++i) {
    const double x = curand_uniform(&state), y = curand_normal(&state);
    u += x;
    uu += x * x;
    n += y;
    nn += y * y;
  }
  atomicAdd(&sums[0], u);
  atomicAdd(&sums[1], uu);
  atomicAdd(&sums[2], n);
  atomicAdd(&sums[3], nn);
}

template <class State>
int run(const char* name) {
  record* records;
  cudaMallocManaged(&records, start_count * sizeof(record));
  draw<State><<<1, start_count>>>(records);
  int* ok;
  cudaMallocManaged(&ok, sizeof(int));
  *ok = 1;
  check_positions<State><<<1, start_count>>>(ok);
  double* sums;
  cudaMallocManaged(&sums, 4 * sizeof(double));
  std::memset(sums, 0, 4 * sizeof(double));
  moments<State><<<2, 128>>>(sums);
  unsigned int* far;
  cudaMallocManaged(&far, 2 * sizeof(unsigned int));
  long_stream<State><<<1, 1>>>(far);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  std::printf("%s value 100000: %u drawn, %u by skipahead\n", name, far[0], far[1]);
  const bool far_ok = far[0] == far[1];
  for (int t = 0; t < start_count; ++t) {
    const record& r = records[t];
    std::printf("%s start %d curand:", name, t);
    for (unsigned int v : r.bits) std::printf(" %u", v);
    std::printf("\n%s start %d uniform bits:", name, t);
    for (unsigned int v : r.uniform) std::printf(" %u", v);
    std::printf("\n%s start %d uniform_double bits:", name, t);
    for (unsigned long long v : r.uniform_double) std::printf(" %llu", v);
    std::printf("\n%s start %d normal:", name, t);
    for (float v : r.normal) std::printf(" %.7e", v);
    std::printf("\n%s start %d normal_double:", name, t);
    for (double v : r.normal_double) std::printf(" %.15e", v);
    std::printf("\n%s start %d log_normal: %.7e %.7e normal2: %.7e %.7e\n", name, t, r.log_normal[0], r.log_normal[1],
                r.normal2.x, r.normal2.y);
  }
  const double count = 256.0 * 512.0;
  const double mean_u = sums[0] / count, var_u = sums[1] / count - mean_u * mean_u;
  const double mean_n = sums[2] / count, var_n = sums[3] / count - mean_n * mean_n;
  const bool moments_ok = mean_u > 0.497 && mean_u < 0.503 && var_u > 0.0813 && var_u < 0.0853 &&
                          mean_n > -0.01 && mean_n < 0.01 && var_n > 0.98 && var_n < 1.02;
  std::printf("%s positions %s, moments %s\n", name, *ok ? "agree" : "DISAGREE", moments_ok ? "ok" : "WRONG");
  if (!moments_ok)
    std::printf("  uniform mean %.5f var %.5f; normal mean %.5f var %.5f\n", mean_u, var_u, mean_n, var_n);
  const int failed = !*ok || !moments_ok || !far_ok;
  cudaFree(far);
  cudaFree(records);
  cudaFree(ok);
  cudaFree(sums);
  return failed;
}

int main() {
  std::printf("sizeof curandState %zu, Philox %zu, MRG32k3a %zu\n", sizeof(curandState),
              sizeof(curandStatePhilox4_32_10_t), sizeof(curandStateMRG32k3a_t));
  unsigned int* jumps;
  cudaMallocManaged(&jumps, 5 * sizeof(unsigned int));
  strides<<<1, 1>>>(jumps);
  cudaDeviceSynchronize();
  std::printf("xorwow subsequence 1: %u, 16 skips of 2^63: %u\n", jumps[0], jumps[1]);
  std::printf("mrg32k3a subsequence 1: %u, 8192 skips of 2^63: %u; sequence 1: %u\n", jumps[2], jumps[3], jumps[4]);
  int failed = run<curandStateXORWOW_t>("xorwow");
  failed += run<curandStatePhilox4_32_10_t>("philox");
  failed += run<curandStateMRG32k3a_t>("mrg32k3a");
  std::printf("%s\n", failed ? "FAILED" : "PASSED");
  return failed ? 1 : 0;
}
