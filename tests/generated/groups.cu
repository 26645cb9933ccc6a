// Generated differential cases: cooperative groups and block barriers.
//   groups SEED CASES
// Each case is one launch of one block of a random size (a multiple of 32
// up to 512) running a random sequence of up to five operations:
// __syncthreads_count/_and/_or with random predicates, tiled_partition<N>
// (N from 1 to 32) with its shuffles, votes, match, cg::reduce and the
// scans, dynamic tiled_partition, labeled_partition and binary_partition
// by random labels, and coalesced_threads() in a branch some threads take.
// Each thread's value changes with every result. Each operation prints, for
// each warp, a hash of its 32 threads' results (the warp and operation
// locate a difference; the hash keeps the output short). The golden comes
// from an H100 (tests/differential.txt); random_cases.hpp draws the cases.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "bits.hpp"
#include "random_cases.hpp"

namespace cg = cooperative_groups;

enum group_op : unsigned {
  barrier_count, barrier_and, barrier_or,
  tile_shfl, tile_shfl_down, tile_shfl_xor, tile_any, tile_all, tile_ballot, tile_match_any, tile_rank,
  tile_reduce_plus, tile_reduce_max, tile_reduce_and, tile_inclusive_plus, tile_exclusive_plus, tile_exclusive_xor,
  dynamic_tile_rank, labeled_size_rank, labeled_shfl, labeled_reduce, binary_ballot, binary_scan,
  coalesced_size_rank, coalesced_shfl, coalesced_reduce, coalesced_scan, coalesced_any,
  group_ops
};
const char* const op_names[group_ops] = {
  "syncthreads_count", "syncthreads_and", "syncthreads_or",
  "tile.shfl", "tile.shfl_down", "tile.shfl_xor", "tile.any", "tile.all", "tile.ballot", "tile.match_any",
  "tile.thread_rank", "reduce(tile, plus)", "reduce(tile, greater)", "reduce(tile, bit_and)",
  "inclusive_scan(tile, plus)", "exclusive_scan(tile, plus)", "exclusive_scan(tile, bit_xor)",
  "tiled_partition(block, n).thread_rank", "labeled_partition size/rank", "labeled_partition shfl",
  "reduce(labeled_partition, plus)", "binary_partition ballot", "inclusive_scan(binary_partition, plus)",
  "coalesced_threads size/rank", "coalesced_threads shfl", "reduce(coalesced_threads, plus)",
  "exclusive_scan(coalesced_threads, plus)", "coalesced_threads any"};

constexpr int max_ops = 5;
struct op_spec {
  unsigned kind, size, operand, bit;  // size: a tile's (or a dynamic partition's); bit: the predicate's bit
};
struct group_case {
  unsigned threads, ops, seed;
  op_spec op[max_ops];
};

// A tile operation for tiles of a size known at compile time.
template <unsigned Size>
__device__ unsigned on_tile(const op_spec& op, unsigned v) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const bool predicate = v >> op.bit & 1;
  switch (op.kind) {
    case tile_shfl: return tile.shfl(v, op.operand % Size);
    case tile_shfl_down: return tile.shfl_down(v, op.operand % Size);
    case tile_shfl_xor: return tile.shfl_xor(v, op.operand % Size);
    case tile_any: return tile.any(predicate);
    case tile_all: return tile.all(predicate);
    case tile_ballot: return tile.ballot(predicate);
    case tile_match_any: return tile.match_any(v % 4);
    case tile_rank: return tile.thread_rank() << 16 | tile.meta_group_rank() << 8 | tile.meta_group_size();
    case tile_reduce_plus: return cg::reduce(tile, v, cg::plus<unsigned>());
    case tile_reduce_max: return cg::reduce(tile, v, cg::greater<unsigned>());
    case tile_reduce_and: return cg::reduce(tile, v | 0x0f0f0f0fu, cg::bit_and<unsigned>());
    case tile_inclusive_plus: return cg::inclusive_scan(tile, v, cg::plus<unsigned>());
    case tile_exclusive_plus: return cg::exclusive_scan(tile, v, cg::plus<unsigned>());
    default: return cg::exclusive_scan(tile, v, cg::bit_xor<unsigned>());
  }
}

// Operations on a coalesced group (of the threads of one warp).
__device__ unsigned on_coalesced(const cg::coalesced_group& g, unsigned kind, unsigned v, unsigned operand) {
  switch (kind) {
    case labeled_size_rank: case coalesced_size_rank: return g.size() << 16 | g.thread_rank();
    case labeled_shfl: case coalesced_shfl: return g.shfl(v, operand % g.size());
    case labeled_reduce: case coalesced_reduce: return cg::reduce(g, v, cg::plus<unsigned>());
    case binary_ballot: return g.ballot(v & 1);
    case binary_scan: return cg::inclusive_scan(g, v, cg::plus<unsigned>());
    case coalesced_scan: return cg::exclusive_scan(g, v, cg::plus<unsigned>());
    default: return g.any(v >> operand % 32 & 1);
  }
}

__global__ void run_case(const group_case* c, unsigned* results) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  unsigned v = mix(c->seed ^ t);
  for (unsigned k = 0; k < c->ops; ++k) {
    const op_spec op = c->op[k];
    const bool predicate = v >> op.bit & 1;
    unsigned r;
    switch (op.kind) {
      case barrier_count: r = __syncthreads_count(predicate); break;
      case barrier_and: r = __syncthreads_and(predicate); break;
      case barrier_or: r = __syncthreads_or(predicate); break;
      case dynamic_tile_rank: {
        const cg::thread_group part = cg::tiled_partition(block, op.size);
        part.sync();
        r = part.thread_rank() << 16 | part.size();
        break;
      }
      case labeled_size_rank: case labeled_shfl: case labeled_reduce: {
        const cg::coalesced_group part = cg::labeled_partition(cg::tiled_partition<32>(block), int(v % (op.operand % 5 + 1)));
        r = on_coalesced(part, op.kind, v, op.operand);
        break;
      }
      case binary_ballot: case binary_scan: {
        const cg::coalesced_group part = cg::binary_partition(cg::tiled_partition<32>(block), predicate);
        r = on_coalesced(part, op.kind, v, op.operand);
        break;
      }
      case coalesced_size_rank: case coalesced_shfl: case coalesced_reduce: case coalesced_scan: case coalesced_any:
        r = 0;
        __syncwarp();
        if (predicate) r = on_coalesced(cg::coalesced_threads(), op.kind, v, op.operand);
        break;
      default:
        switch (op.size) {
          case 1: r = on_tile<1>(op, v); break;
          case 2: r = on_tile<2>(op, v); break;
          case 4: r = on_tile<4>(op, v); break;
          case 8: r = on_tile<8>(op, v); break;
          case 16: r = on_tile<16>(op, v); break;
          default: r = on_tile<32>(op, v); break;
        }
        break;
    }
    results[k * blockDim.x + t] = r;
    v = mix(v ^ r);
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  group_case* device_case;
  unsigned* device_results;
  cudaMalloc(&device_case, sizeof(group_case));
  cudaMalloc(&device_results, max_ops * 512 * sizeof(unsigned));
  std::printf("groups, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  std::vector<unsigned> results(max_ops * 512);
  for (unsigned n = 0; n < count; ++n) {
    group_case c{};
    c.threads = 32 * (1 + r.below(16));
    c.ops = 1 + r.below(max_ops);
    c.seed = r.next32();
    for (unsigned k = 0; k < c.ops; ++k) {
      op_spec& op = c.op[k];
      op.kind = r.below(group_ops);
      op.size = 1u << r.below(6);  // a power of two that divides the block
      op.operand = r.below(64);
      op.bit = r.below(32);
    }
    cudaMemcpy(device_case, &c, sizeof c, cudaMemcpyHostToDevice);
    run_case<<<1, c.threads>>>(device_case, device_results);
    const cudaError_t status = cudaMemcpy(results.data(), device_results, c.ops * c.threads * sizeof(unsigned),
                                          cudaMemcpyDeviceToHost);
    std::printf("case %u: %u threads, %s\n", n, c.threads, cudaGetErrorName(status));
    for (unsigned k = 0; k < c.ops; ++k) {
      const op_spec& op = c.op[k];
      std::printf("  %s size %u operand %u bit %u:", op_names[op.kind], op.size, op.operand, op.bit);
      for (unsigned warp = 0; warp < c.threads / 32; ++warp) {
        std::printf(" %08x", generated::hash_of(&results[k * c.threads + warp * 32], 32));
      }
      std::printf("\n");
    }
  }
  return 0;
}
