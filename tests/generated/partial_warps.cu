// Generated differential cases: warps of blocks of every shape, partial
// last warps, and the full-mask collectives real code calls in them.
//   partial_warps SEED CASES
// Each case is one launch of two blocks of a random 1-, 2- or 3-D shape
// (1 to 1024 threads, rows that do not fill warps, a partial last warp).
// Threads form warps by their linear id, x fastest; each warp runs a random
// sequence of __ballot/any/all_sync, __shfl*_sync, __reduce_add_sync and
// __match_any_sync with the full mask 0xffffffff (lanes past the end of a
// partial warp do not exist and do not hold a collective), __activemask(),
// and __syncthreads_count, each thread's value depending on every earlier
// result. A shuffle from a lane that does not exist is undefined on a GPU:
// the thread keeps its own value and the output marks it. Each operation
// prints, for each warp, a hash of its threads' results. The golden comes
// from an H100 (tests/differential.txt); random_cases.hpp draws the cases.
#include <cstdio>
#include <vector>

#include "bits.hpp"
#include "random_cases.hpp"

enum warp_op : unsigned {
  op_ballot, op_any, op_all, op_shfl, op_shfl_down, op_shfl_up, op_shfl_xor, op_reduce_add, op_match_any,
  op_activemask, op_syncthreads_count, op_lane_and_warp, op_count
};
const char* const op_names[op_count] = {"ballot", "any", "all", "shfl", "shfl_down", "shfl_up", "shfl_xor",
                                        "reduce_add", "match_any", "activemask", "syncthreads_count", "lane/warp"};
constexpr int max_ops = 6;
struct partial_case {
  unsigned ops, seed;
  unsigned op[max_ops], operand[max_ops], width[max_ops];
};
constexpr unsigned undefined_flag = 0x80000000u;  // in `flags`

__global__ void run_case(partial_case c, unsigned* results, unsigned* flags) {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  const unsigned lane = t % 32, warp = t / 32;
  const unsigned lanes_in_warp = threads - warp * 32 < 32 ? threads - warp * 32 : 32;
  const unsigned id = blockIdx.x * threads + t;
  unsigned v = mix(c.seed ^ id);
  for (unsigned k = 0; k < c.ops; ++k) {
    const unsigned operand = c.operand[k], width = c.width[k];
    const bool predicate = v >> operand % 32 & 1;
    unsigned r, flag = 0;
    switch (c.op[k]) {
      case op_ballot: r = __ballot_sync(0xffffffffu, predicate); break;
      case op_any: r = __any_sync(0xffffffffu, predicate); break;
      case op_all: r = __all_sync(0xffffffffu, predicate); break;
      case op_shfl: r = __shfl_sync(0xffffffffu, v, int(operand), int(width)); break;
      case op_shfl_down: r = __shfl_down_sync(0xffffffffu, v, operand, int(width)); break;
      case op_shfl_up: r = __shfl_up_sync(0xffffffffu, v, operand, int(width)); break;
      case op_shfl_xor: r = __shfl_xor_sync(0xffffffffu, v, int(operand), int(width)); break;
      case op_reduce_add: r = __reduce_add_sync(0xffffffffu, v); break;
      case op_match_any: r = __match_any_sync(0xffffffffu, v % 3); break;
      case op_activemask: __syncwarp(); r = __activemask(); break;
      case op_syncthreads_count: r = __syncthreads_count(predicate); break;
      default: r = lane << 16 | warp << 8 | lanes_in_warp; break;
    }
    // op_shfl ... op_shfl_xor as bits.hpp's kinds.
    const shuffle_kind kinds[] = {shuffle_idx, shuffle_down, shuffle_up, shuffle_xor};
    if (c.op[k] >= op_shfl && c.op[k] <= op_shfl_xor &&
        shuffle_source(kinds[c.op[k] - op_shfl], lane, operand, width) >= lanes_in_warp) {
      r = v;
      flag = undefined_flag;
    }
    results[k * 2048 + id] = r;
    flags[k * 2048 + id] = flag;
    v = mix(v ^ r);
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  unsigned *device_results, *device_flags;
  cudaMalloc(&device_results, max_ops * 2048 * sizeof(unsigned));
  cudaMalloc(&device_flags, max_ops * 2048 * sizeof(unsigned));
  std::vector<unsigned> results(max_ops * 2048), flags(max_ops * 2048);
  std::printf("partial warps, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  for (unsigned n = 0; n < count; ++n) {
    dim3 block;
    switch (r.below(3)) {
      case 0: block = dim3(1 + r.below(1024)); break;
      case 1: block = dim3(1 + r.below(48), 1 + r.below(21)); break;
      default: block = dim3(1 + r.below(16), 1 + r.below(8), 1 + r.below(8)); break;
    }
    partial_case c{};
    c.ops = 1 + r.below(max_ops);
    c.seed = r.next32();
    for (unsigned k = 0; k < c.ops; ++k) {
      c.op[k] = r.below(op_count);
      c.width[k] = 1u << r.below(6);
      c.operand[k] = c.op[k] == op_shfl ? r.below(64) : r.below(32);
      if (c.op[k] == op_shfl_up || c.op[k] == op_shfl_down) c.operand[k] %= c.width[k] + 1;
    }
    run_case<<<2, block>>>(c, device_results, device_flags);
    const unsigned threads = block.x * block.y * block.z;
    const cudaError_t status = cudaMemcpy(results.data(), device_results, results.size() * sizeof(unsigned),
                                          cudaMemcpyDeviceToHost);
    cudaMemcpy(flags.data(), device_flags, flags.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    std::printf("case %u: blocks (%u,%u,%u): %s\n", n, block.x, block.y, block.z, cudaGetErrorName(status));
    for (unsigned k = 0; k < c.ops; ++k) {
      std::printf("  %s operand %u width %u:", op_names[c.op[k]], c.operand[k], c.width[k]);
      for (unsigned b = 0; b < 2; ++b) {
        for (unsigned first = b * threads; first < (b + 1) * threads; first += 32) {
          const unsigned end = first + 32 < (b + 1) * threads ? first + 32 : (b + 1) * threads;
          unsigned undefined = 0;
          for (unsigned i = first; i < end; ++i) undefined += flags[k * 2048 + i] != 0;
          std::printf(undefined ? " %08x(%u?)" : " %08x", generated::hash_of(&results[k * 2048 + first], end - first),
                      undefined);
        }
      }
      std::printf("\n");
    }
  }
  return 0;
}
