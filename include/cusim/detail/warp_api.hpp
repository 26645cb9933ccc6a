// The engine call behind every warp-level intrinsic (shuffles, votes, match,
// reduce, __syncwarp, __activemask). A lane that calls one waits until every
// non-exited lane named in its mask has called a collective of the same kind
// with the same mask (PTX's rule for *.sync instructions); then each lane gets
// its result. The CUDA names (warp_functions.hpp) are thin wrappers.
#pragma once
#include <cstdint>

#include <cusim/detail/config.hpp>

namespace cusim::detail {

enum class warp_op : unsigned char {
  sync,       // __syncwarp
  shfl_idx,   // __shfl_sync
  shfl_up,    // __shfl_up_sync
  shfl_down,  // __shfl_down_sync
  shfl_xor,   // __shfl_xor_sync
  vote_all,   // __all_sync
  vote_any,   // __any_sync
  ballot,     // __ballot_sync
  match_any,  // __match_any_sync
  match_all,  // __match_all_sync
  reduce_add,
  reduce_min_unsigned,
  reduce_min_signed,
  reduce_max_unsigned,
  reduce_max_signed,
  reduce_and,
  reduce_or,
  reduce_xor,
  active_mask,  // __activemask: the lanes that reach the call together
};

// The CUDA name of an operation, for reports.
const char* warp_op_name(warp_op op);

struct warp_call {
  warp_op op;
  unsigned int mask;     // lanes named by the caller
  std::uint64_t value;   // the lane's operand: shuffled bits, predicate, compared or reduced value
  unsigned int operand;  // shuffles: source lane, delta or lane mask
  unsigned int width;    // shuffles: segment width (a power of two, 1 to 32)
  const char* file;      // the call site, for reports
  unsigned int line;
};

struct warp_result {
  std::uint64_t value;   // shuffled bits, vote, reduction
  unsigned int lanes;    // ballot, match and active masks
  bool predicate;        // __match_all_sync's *pred
};

// Called by device code: waits for the lanes of `call.mask`, returns this lane's result.
CUSIM_FACT(waits) warp_result warp_collective(const warp_call& call);

}  // namespace cusim::detail
