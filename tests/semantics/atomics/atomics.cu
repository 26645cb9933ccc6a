// Every CUDA atomic function for every type CUDA gives it, on global and on
// shared memory, with the _block and _system variants, from many threads of
// many blocks at once. Each result is exact (integer totals, float sums of
// values that add exactly) and computed on the host from the definitions.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

const int blocks = 8, threads = 128, total = blocks * threads;

struct results {
  int add_i, sub_i, min_i, max_i, and_i, or_i, xor_i, cas_i, exch_count;
  unsigned int add_u, sub_u, min_u, max_u, inc_u, dec_u, and_u, or_u, xor_u;
  unsigned long long add_ull, min_ull, max_ull, and_ull, or_ull, xor_ull, cas_ull;
  long long min_ll, max_ll;
  float add_f, exch_f;
  double add_d;
  unsigned short cas_us;
  __half add_h;
  __half2 add_h2;
  int shared_sum, block_scoped, system_scoped;
};

__global__ void hammer(results* r) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&r->add_i, t);
  atomicSub(&r->sub_i, 2);
  atomicMin(&r->min_i, 1000 - t);
  atomicMax(&r->max_i, t - 7);
  atomicAnd(&r->and_i, ~(1 << (t % 31)));
  atomicOr(&r->or_i, 1 << (t % 31));
  atomicXor(&r->xor_i, t);
  atomicAdd(&r->add_u, 3u);
  atomicSub(&r->sub_u, 1u);
  atomicMin(&r->min_u, 5000u - unsigned(t));
  atomicMax(&r->max_u, unsigned(t) * 3u);
  atomicInc(&r->inc_u, 100u);  // wraps to 0 after 100
  atomicDec(&r->dec_u, 50u);   // wraps to 50 after 0
  atomicAnd(&r->and_u, 0xffffffffu ^ (1u << (t % 32)));
  atomicOr(&r->or_u, 1u << (t % 32));
  atomicXor(&r->xor_u, unsigned(t) * 2654435761u);
  atomicAdd(&r->add_ull, 1ull << 33);
  atomicMin(&r->min_ull, 1ull << 40 | unsigned(t));
  atomicMax(&r->max_ull, 1ull << 40 | unsigned(t));
  atomicAnd(&r->and_ull, ~(1ull << (t % 64)));
  atomicOr(&r->or_ull, 1ull << (t % 64));
  atomicXor(&r->xor_ull, (unsigned long long)t << 20);
  atomicMin(&r->min_ll, -1000000000000ll + t);
  atomicMax(&r->max_ll, -1000000000000ll + t);
  atomicAdd(&r->add_f, 0.5f);
  atomicAdd(&r->add_d, 0.25);
  atomicAdd(&r->add_h, __float2half(1.0f));
  atomicAdd(&r->add_h2, __floats2half2_rn(1.0f, -0.5f));
  // Compare-and-swap loops: each thread increments once, however often it loses.
  int old = r->cas_i, seen;
  while ((seen = atomicCAS(&r->cas_i, old, old + 1)) != old) old = seen;
  unsigned long long old_ull = r->cas_ull, seen_ull;
  while ((seen_ull = atomicCAS(&r->cas_ull, old_ull, old_ull + 3)) != old_ull) old_ull = seen_ull;
  unsigned short old_us = r->cas_us, seen_us;
  while ((seen_us = atomicCAS(&r->cas_us, old_us, (unsigned short)(old_us + 1))) != old_us) old_us = seen_us;
  // Exchange: every value taken out was put in by someone (a chain of exchanges).
  if (atomicExch(&r->exch_f, float(t)) >= 0.0f) atomicAdd(&r->exch_count, 1);
  // Shared memory, then one add per block; and the scoped variants.
  __shared__ int block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd_block(&block_sum, 1);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd_system(&r->shared_sum, block_sum);
  atomicAdd_block(&r->block_scoped, 1);
  atomicOr_system(&r->system_scoped, 1 << (t % 8));
}

int failures = 0;
template <class T>
void check(const char* what, T got, T want) {
  if (got == want) return;
  ++failures;
  std::printf("  %s: got %.17g, expected %.17g\n", what, double(got), double(want));
}

int main() {
  results* r;
  cudaMallocManaged(&r, sizeof(results));
  results init{};
  init.min_i = 1 << 30;
  init.max_i = -(1 << 30);
  init.and_i = -1;
  init.min_u = 0xffffffffu;
  init.and_u = 0xffffffffu;
  init.min_ull = ~0ull;
  init.and_ull = ~0ull;
  init.min_ll = 1ll << 62;
  init.max_ll = -(1ll << 62);
  init.exch_f = -1.0f;
  init.add_h = __float2half(0.0f);
  init.add_h2 = __floats2half2_rn(0.0f, 0.0f);
  *r = init;
  hammer<<<blocks, threads>>>(r);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("atomics: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int xor_i = 0;
  unsigned xor_u = 0;
  unsigned long long xor_ull = 0;
  for (int t = 0; t < total; ++t) {
    xor_i ^= t;
    xor_u ^= unsigned(t) * 2654435761u;
    xor_ull ^= (unsigned long long)t << 20;
  }
  check("atomicAdd int", r->add_i, total * (total - 1) / 2);
  check("atomicSub int", r->sub_i, -2 * total);
  check("atomicMin int", r->min_i, 1000 - (total - 1));
  check("atomicMax int", r->max_i, total - 1 - 7);
  check("atomicAnd int", r->and_i, int(0x80000000u));
  check("atomicOr int", r->or_i, 0x7fffffff);
  check("atomicXor int", r->xor_i, xor_i);
  check("atomicAdd unsigned", r->add_u, 3u * total);
  check("atomicSub unsigned", r->sub_u, 0u - unsigned(total));
  check("atomicMin unsigned", r->min_u, 5000u - unsigned(total - 1));
  check("atomicMax unsigned", r->max_u, unsigned(total - 1) * 3u);
  check("atomicInc", r->inc_u, unsigned(total % 101));
  check("atomicDec", r->dec_u, unsigned((51 - total % 51) % 51));
  check("atomicAnd unsigned", r->and_u, 0u);
  check("atomicOr unsigned", r->or_u, 0xffffffffu);
  check("atomicXor unsigned", r->xor_u, xor_u);
  check("atomicAdd unsigned long long", r->add_ull, (unsigned long long)total << 33);
  check("atomicMin unsigned long long", r->min_ull, 1ull << 40);
  check("atomicMax unsigned long long", r->max_ull, 1ull << 40 | unsigned(total - 1));
  check("atomicAnd unsigned long long", r->and_ull, 0ull);
  check("atomicOr unsigned long long", r->or_ull, ~0ull);
  check("atomicXor unsigned long long", r->xor_ull, xor_ull);
  check("atomicMin long long", r->min_ll, -1000000000000ll);
  check("atomicMax long long", r->max_ll, -1000000000000ll + total - 1);
  check("atomicAdd float", r->add_f, 0.5f * total);
  check("atomicAdd double", r->add_d, 0.25 * total);
  check("atomicAdd __half", __half2float(r->add_h), float(total));
  check("atomicAdd __half2 low", __low2float(r->add_h2), float(total));
  check("atomicAdd __half2 high", __high2float(r->add_h2), -0.5f * total);
  check("atomicCAS int", r->cas_i, total);
  check("atomicCAS unsigned long long", r->cas_ull, 3ull * total);
  check("atomicCAS unsigned short", int(r->cas_us), total);
  check("atomicExch float", r->exch_count, total - 1);
  check("shared memory atomicAdd_block", r->shared_sum, total);
  check("atomicAdd_block", r->block_scoped, total);
  check("atomicOr_system", r->system_scoped, 0xff);
  std::printf("atomics: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
