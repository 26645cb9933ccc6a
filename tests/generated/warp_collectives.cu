// Generated differential cases: warp collectives with random masks.
//   warp_collectives SEED CASES
// Each case is one warp: some lanes exit at once, the others run a sequence
// of up to four collectives (shuffles of every kind and width, votes, match,
// reduce, __syncwarp), each with its own mask, a subset of the live lanes
// (dense, sparse, non-contiguous, one lane), while the lanes outside it skip
// it. Each lane's value changes with every result, so a wrong result shows
// in every later one. A shuffle whose source lane is outside the mask reads
// an undefined value on a GPU: it prints "?" and the lane keeps its value.
// The golden comes from an H100 (tests/differential.txt); random_cases.hpp
// draws the cases from SEED.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bits.hpp"
#include "random_cases.hpp"

// The shuffles first, in bits.hpp's shuffle_kind order (idx, up, down, xor).
enum op_kind : unsigned {
  shfl_idx, shfl_up, shfl_down, shfl_xor, vote_ballot, vote_any, vote_all, match_any, match_all,
  reduce_add, reduce_min, reduce_max, reduce_min_signed, reduce_max_signed,
  reduce_and, reduce_or, reduce_xor, syncwarp, op_kinds
};
const char* const op_names[op_kinds] = {
  "shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "match_any", "match_all",
  "reduce_add", "reduce_min", "reduce_max", "reduce_min(int)", "reduce_max(int)",
  "reduce_and", "reduce_or", "reduce_xor", "syncwarp"};

constexpr int max_ops = 4;
struct op_spec {
  unsigned kind, mask, operand, width;
};
struct warp_case {
  unsigned live, ops;
  op_spec op[max_ops];
  unsigned values[32];
};
constexpr unsigned undefined_marker = 1;  // in a result's flags

__global__ void run_cases(const warp_case* cases, unsigned count, unsigned* results, unsigned* flags) {
  const unsigned c = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (c >= count) return;
  const warp_case& w = cases[c];
  if (!(w.live >> lane & 1)) return;
  unsigned v = w.values[lane];
  for (unsigned k = 0; k < w.ops; ++k) {
    const op_spec op = w.op[k];
    if (!(op.mask >> lane & 1)) continue;
    const unsigned slot = (c * max_ops + k) * 32 + lane;
    const bool predicate = v >> (op.operand % 32) & 1;
    unsigned r = 0;
    switch (op.kind) {
      case shfl_idx: r = __shfl_sync(op.mask, v, int(op.operand), int(op.width)); break;
      case shfl_up: r = __shfl_up_sync(op.mask, v, op.operand, int(op.width)); break;
      case shfl_down: r = __shfl_down_sync(op.mask, v, op.operand, int(op.width)); break;
      case shfl_xor: r = __shfl_xor_sync(op.mask, v, int(op.operand), int(op.width)); break;
      case vote_ballot: r = __ballot_sync(op.mask, predicate); break;
      case vote_any: r = __any_sync(op.mask, predicate); break;
      case vote_all: r = __all_sync(op.mask, predicate); break;
      case match_any: r = __match_any_sync(op.mask, v); break;
      case match_all: {
        int same;
        r = __match_all_sync(op.mask, v, &same);
        r ^= unsigned(same) << 31;
        break;
      }
      case reduce_add: r = __reduce_add_sync(op.mask, v); break;
      case reduce_min: r = __reduce_min_sync(op.mask, v); break;
      case reduce_max: r = __reduce_max_sync(op.mask, v); break;
      case reduce_min_signed: r = unsigned(__reduce_min_sync(op.mask, int(v))); break;
      case reduce_max_signed: r = unsigned(__reduce_max_sync(op.mask, int(v))); break;
      case reduce_and: r = __reduce_and_sync(op.mask, v); break;
      case reduce_or: r = __reduce_or_sync(op.mask, v); break;
      case reduce_xor: r = __reduce_xor_sync(op.mask, v); break;
      default: __syncwarp(op.mask); r = v; break;
    }
    unsigned flag = 0;
    if (op.kind <= shfl_xor && !(op.mask >> shuffle_source(shuffle_kind(op.kind), lane, op.operand, op.width) & 1)) {
      flag = undefined_marker;
      r = v;
    }
    results[slot] = r;
    flags[slot] = flag;
    // The next collective's value depends on this one's result.
    v = op.kind <= shfl_xor ? r : (v * 0x01000193u) ^ r;
  }
}

// Per-lane values with duplicates often enough for match and votes to vary.
static void draw_values(generated::random_source& r, unsigned* values) {
  const unsigned shape = r.below(4), common = r.next32();
  for (int lane = 0; lane < 32; ++lane) {
    switch (shape) {
      case 0: values[lane] = r.next32(); break;
      case 1: values[lane] = r.below(4); break;
      case 2: values[lane] = common; break;
      default: values[lane] = r.chance(80) ? common : r.next32(); break;
    }
  }
}

static op_spec draw_op(generated::random_source& r, unsigned live) {
  op_spec op{};
  op.kind = r.below(op_kinds);
  op.mask = generated::subset_of(r, live);
  op.width = 1u << r.below(6);
  switch (op.kind) {
    case shfl_idx: op.operand = r.below(64); break;
    case shfl_up: case shfl_down: op.operand = r.below(op.width + 1); break;
    case shfl_xor: op.operand = r.below(32); break;
    default: op.operand = r.below(32); op.width = 32; break;  // the bit the votes' predicate tests
  }
  return op;
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  std::vector<warp_case> cases(count);
  for (warp_case& w : cases) {
    w.live = r.chance(60) ? 0xffffffffu : generated::warp_mask(r);
    w.ops = 1 + r.below(max_ops);
    for (unsigned k = 0; k < w.ops; ++k) w.op[k] = draw_op(r, w.live);
    draw_values(r, w.values);
  }
  warp_case* device_cases;
  unsigned *device_results, *device_flags;
  const size_t slots = size_t(count) * max_ops * 32;
  cudaMalloc(&device_cases, count * sizeof(warp_case));
  cudaMalloc(&device_results, slots * sizeof(unsigned));
  cudaMalloc(&device_flags, slots * sizeof(unsigned));
  cudaMemcpy(device_cases, cases.data(), count * sizeof(warp_case), cudaMemcpyHostToDevice);
  run_cases<<<(count + 3) / 4, 128>>>(device_cases, count, device_results, device_flags);
  std::vector<unsigned> results(slots), flags(slots);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(results.data(), device_results, slots * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(flags.data(), device_flags, slots * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("warp collectives, seed %s, %u cases: launch %s, copy %s\n", argv[1], count, cudaGetErrorName(launched),
              cudaGetErrorName(copied));
  for (unsigned c = 0; c < count; ++c) {
    const warp_case& w = cases[c];
    for (unsigned k = 0; k < w.ops; ++k) {
      const op_spec& op = w.op[k];
      std::printf("case %u op %u %s mask %08x operand %u width %u:", c, k, op_names[op.kind], op.mask, op.operand,
                  op.width);
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(op.mask >> lane & 1)) continue;
        const size_t slot = (size_t(c) * max_ops + k) * 32 + lane;
        if (flags[slot] & undefined_marker) std::printf(" ?");
        else std::printf(" %x", results[slot]);
      }
      std::printf("\n");
    }
  }
  return 0;
}
