// Generated differential cases: inline PTX shfl.sync with any control
// operand, as libraries write it.
//   ptx_shuffles SEED CASES
// CUDA's __shfl_*_sync put ((32 - width) << 8 | clamp) in shfl's c operand;
// PTX takes any segment mask (bits 8-12) and clamp lane (bits 0-4), and CUB's
// warp reductions clamp each lane at the last valid lane of its own
// segment, so c differs from lane to lane. Each case is one warp of one
// mode (up, down, bfly, idx) with one b, and a c that is CUDA's, uniform
// but otherwise, or each lane's own; every lane takes part (a source lane
// is always active). Each lane's value and predicate are printed as a hash
// per case, and the lanes whose predicate is false as a mask. The golden
// comes from a GPU (tests/differential.txt); random_cases.hpp draws the cases.
#include <cstdio>

#include "bits.hpp"
#include "random_cases.hpp"

constexpr unsigned max_cases_per_launch = 64;
struct shuffle_case {
  unsigned mode, b, seed;
  unsigned c[32];
};

__device__ unsigned ptx_shuffle(unsigned mode, unsigned value, unsigned b, unsigned c, bool& in_range) {
  unsigned result, predicate;
  switch (mode) {
    case 0:
      asm volatile("{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, p; }"
                   : "=r"(result), "=r"(predicate) : "r"(value), "r"(b), "r"(c));
      break;
    case 1:
      asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, p; }"
                   : "=r"(result), "=r"(predicate) : "r"(value), "r"(b), "r"(c));
      break;
    case 2:
      asm volatile("{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, p; }"
                   : "=r"(result), "=r"(predicate) : "r"(value), "r"(b), "r"(c));
      break;
    default:
      asm volatile("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, %4, 0xffffffff; selp.u32 %1, 1, 0, p; }"
                   : "=r"(result), "=r"(predicate) : "r"(value), "r"(b), "r"(c));
      break;
  }
  in_range = predicate != 0;
  return result;
}

// One warp per case.
__global__ void run_cases(const shuffle_case* cases, unsigned* values, unsigned* out_of_range) {
  const shuffle_case& c = cases[blockIdx.x];
  const unsigned lane = threadIdx.x;
  bool in_range;
  const unsigned value = mix(c.seed ^ lane);
  values[blockIdx.x * 32 + lane] = ptx_shuffle(c.mode, value, c.b, c.c[lane], in_range);
  const unsigned outside = __ballot_sync(0xffffffffu, !in_range);
  if (lane == 0) out_of_range[blockIdx.x] = outside;
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  const char* const modes[] = {"up", "down", "bfly", "idx"};
  shuffle_case* cases;
  unsigned *values, *out_of_range;
  cudaMallocManaged(&cases, max_cases_per_launch * sizeof(shuffle_case));
  cudaMallocManaged(&values, max_cases_per_launch * 32 * sizeof(unsigned));
  cudaMallocManaged(&out_of_range, max_cases_per_launch * sizeof(unsigned));
  std::printf("PTX shuffles, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  for (unsigned first = 0; first < count; first += max_cases_per_launch) {
    const unsigned launch = count - first < max_cases_per_launch ? count - first : max_cases_per_launch;
    for (unsigned k = 0; k < launch; ++k) {
      shuffle_case& c = cases[k];
      c.mode = r.below(4);
      c.b = r.chance(20) ? r.next32() : r.below(33);  // b's bits above 4 do not count
      c.seed = r.next32();
      const unsigned segment_masks[] = {0, 0x10, 0x18, 0x1c, 0x1e, 0x1f, r.below(32)};
      const unsigned shape = r.below(4);
      const unsigned uniform = r.pick(segment_masks) << 8 | r.below(32);
      // CUDA's: a power-of-two width, clamp 0 for up and 31 otherwise.
      const unsigned cuda_form = (32 - (1u << r.below(6))) << 8 | (c.mode == 0 ? 0 : 31);
      for (unsigned lane = 0; lane < 32; ++lane) {
        switch (shape) {
          case 0: c.c[lane] = cuda_form; break;
          case 1: c.c[lane] = uniform; break;
          case 2: c.c[lane] = (uniform & ~31u) | r.below(32); break;  // each lane its own clamp (CUB's)
          default: c.c[lane] = r.pick(segment_masks) << 8 | r.below(32) | (r.chance(10) ? 0xffff0000u : 0); break;
        }
      }
    }
    run_cases<<<launch, 32>>>(cases, values, out_of_range);
    const cudaError_t status = cudaDeviceSynchronize();
    for (unsigned k = 0; k < launch; ++k) {
      const shuffle_case& c = cases[k];
      std::printf("case %u: %s b %u c[0] %08x c[31] %08x: %s %08x out of range %08x\n", first + k, modes[c.mode],
                  c.b, c.c[0], c.c[31], cudaGetErrorName(status), generated::hash_of(values + k * 32, 32),
                  out_of_range[k]);
    }
  }
  return 0;
}
