// __match_any_sync / __match_all_sync for every type CUDA's overloads take,
// and the sm_80 warp reductions __reduce_{add,min,max}_sync (int and
// unsigned) and __reduce_{and,or,xor}_sync, over a full warp and over the
// lanes of a partial last warp. Expected values are computed on the host
// from the definitions: match_any gives the lanes holding the same value,
// match_all the whole mask (and *pred = 1) when all hold the same value.
#include <cstdio>
#include <cuda_runtime.h>

// Thread tid's value in group `g`: a few equal runs, or all equal.
__host__ __device__ int group_value(int g, int tid) { return g == 0 ? 7 : (tid % 32) / (g * 4) - 3; }

struct match_out {
  unsigned any, all;
  int pred;
};

template <class T>
__global__ void match_kernel(match_out* out, int groups) {
  const int tid = threadIdx.x;
  for (int g = 0; g < groups; ++g) {
    const T v = T(group_value(g, tid));
    match_out r;
    r.any = __match_any_sync(0xffffffff, v);
    r.all = __match_all_sync(0xffffffff, v, &r.pred);
    out[g * blockDim.x + tid] = r;
  }
}

struct reduce_out {
  int add_i, min_i, max_i;
  unsigned add_u, min_u, max_u, and_u, or_u, xor_u;
};

__host__ __device__ int reduce_value(int tid) { return (tid * 37) % 23 - 11; }

__global__ void reduce_kernel(reduce_out* out) {
  const int tid = threadIdx.x;
  const int i = reduce_value(tid);
  const unsigned u = static_cast<unsigned>(i) * 2654435761u;
  out[tid] = {__reduce_add_sync(0xffffffff, i), __reduce_min_sync(0xffffffff, i), __reduce_max_sync(0xffffffff, i),
              __reduce_add_sync(0xffffffff, u), __reduce_min_sync(0xffffffff, u), __reduce_max_sync(0xffffffff, u),
              __reduce_and_sync(0xffffffff, u), __reduce_or_sync(0xffffffff, u), __reduce_xor_sync(0xffffffff, u)};
}

int failures = 0, checks = 0;
void check(bool ok, const char* what, int tid) {
  ++checks;
  if (!ok && ++failures <= 10) std::printf("  %s: thread %d wrong\n", what, tid);
}

unsigned lanes_of(int threads, int tid) {
  const int in_warp = threads - (tid - tid % 32);
  return in_warp >= 32 ? 0xffffffffu : (1u << in_warp) - 1;
}

template <class T>
void check_match(const char* name, int threads) {
  const int groups = 3;
  match_out* out;
  cudaMallocManaged(&out, sizeof(match_out) * groups * threads);
  match_kernel<T><<<1, threads>>>(out, groups);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    check(false, name, -1);
    return;
  }
  for (int g = 0; g < groups; ++g) {
    for (int tid = 0; tid < threads; ++tid) {
      const unsigned lanes = lanes_of(threads, tid);
      const int base = tid - tid % 32;
      unsigned same = 0;
      bool all_same = true;
      for (int lane = 0; lane < 32; ++lane) {
        if (!(lanes & (1u << lane))) continue;
        if (T(group_value(g, base + lane)) == T(group_value(g, tid))) same |= 1u << lane;
        else all_same = false;
      }
      const match_out& r = out[g * threads + tid];
      check(r.any == same, name, tid);
      check(r.all == (all_same ? lanes : 0u) && r.pred == (all_same ? 1 : 0), name, tid);
    }
  }
  cudaFree(out);
}

void check_reduce(int threads) {
  reduce_out* out;
  cudaMallocManaged(&out, sizeof(reduce_out) * threads);
  reduce_kernel<<<1, threads>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    check(false, "reduce", -1);
    return;
  }
  for (int tid = 0; tid < threads; ++tid) {
    const int base = tid - tid % 32;
    const unsigned lanes = lanes_of(threads, tid);
    reduce_out want{0, 1 << 30, -(1 << 30), 0, 0xffffffffu, 0, 0xffffffffu, 0, 0};
    for (int lane = 0; lane < 32; ++lane) {
      if (!(lanes & (1u << lane))) continue;
      const int i = reduce_value(base + lane);
      const unsigned u = static_cast<unsigned>(i) * 2654435761u;
      want.add_i += i;
      want.min_i = i < want.min_i ? i : want.min_i;
      want.max_i = i > want.max_i ? i : want.max_i;
      want.add_u += u;
      want.min_u = u < want.min_u ? u : want.min_u;
      want.max_u = u > want.max_u ? u : want.max_u;
      want.and_u &= u;
      want.or_u |= u;
      want.xor_u ^= u;
    }
    const reduce_out& r = out[tid];
    check(r.add_i == want.add_i && r.min_i == want.min_i && r.max_i == want.max_i, "reduce int", tid);
    check(r.add_u == want.add_u && r.min_u == want.min_u && r.max_u == want.max_u, "reduce unsigned", tid);
    check(r.and_u == want.and_u && r.or_u == want.or_u && r.xor_u == want.xor_u, "reduce bits", tid);
  }
  cudaFree(out);
}

int main() {
  for (int threads : {64, 44}) {
    check_match<int>("match int", threads);
    check_match<unsigned int>("match unsigned", threads);
    check_match<long>("match long", threads);
    check_match<unsigned long>("match unsigned long", threads);
    check_match<long long>("match long long", threads);
    check_match<unsigned long long>("match unsigned long long", threads);
    check_match<float>("match float", threads);
    check_match<double>("match double", threads);
    check_reduce(threads);
  }
  std::printf("match and reduce: %d checks, %d failures: %s\n", checks, failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
