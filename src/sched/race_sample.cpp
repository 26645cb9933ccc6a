#include "sched/race_sample.hpp"

#include <algorithm>

namespace cusim::detail {

race_sample::race_sample(std::uint64_t blocks, std::uint64_t threads_per_block, std::uint64_t thread_budget)
    : blocks_(blocks) {
  if (thread_budget == 0 || threads_per_block == 0) return;
  // At least the first pair and the last, whatever the blocks' size.
  const std::uint64_t pairs = std::max<std::uint64_t>(2, thread_budget / (2 * threads_per_block));
  if (2 * pairs < blocks) pairs_ = pairs;
}

bool race_sample::follows(std::uint64_t linear_block) const {
  if (pairs_ == 0) return true;
  // Pair starts are spread more than two blocks apart (2 * pairs_ < blocks_),
  // and the pair holding a block is the one this gives or the next.
  const std::uint64_t near = linear_block * (pairs_ - 1) / (blocks_ - 2);
  for (std::uint64_t pair = near; pair <= near + 1 && pair < pairs_; ++pair) {
    const std::uint64_t start = pair_start(pair);
    if (linear_block >= start && linear_block <= start + 1) return true;
  }
  return false;
}

}  // namespace cusim::detail
