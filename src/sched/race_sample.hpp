// Which blocks of a grid race checking follows. Each CUDA thread it follows
// costs ThreadSanitizer an identity of its own (about 0.4 ms: making it
// maps and clears most of a megabyte), so a grid of a million threads would
// take many minutes. Past a budget of threads, the check follows pairs of
// neighbouring blocks spread evenly over the grid, the first two and the
// last two among them: every race within a block, between neighbours (a
// halo read before the neighbour wrote it) and between blocks that all
// write the same addresses is still found. The other blocks run on
// unfollowed, their accesses unseen; the program's results do not change.
#pragma once
#include <cstdint>

namespace cusim::detail {

class race_sample {
 public:
  // `thread_budget`: the most threads to follow; 0 follows every block.
  race_sample(std::uint64_t blocks, std::uint64_t threads_per_block, std::uint64_t thread_budget);

  bool follows_every_block() const { return pairs_ == 0; }
  std::uint64_t followed_blocks() const { return pairs_ == 0 ? blocks_ : 2 * pairs_; }
  // `linear_block`: the block's linear index in its grid.
  bool follows(std::uint64_t linear_block) const;

 private:
  // The first block of pair `pair`.
  std::uint64_t pair_start(std::uint64_t pair) const { return pair * (blocks_ - 2) / (pairs_ - 1); }

  std::uint64_t blocks_;
  std::uint64_t pairs_ = 0;  // 0: every block; else at least 2, and 2 * pairs_ < blocks_
};

}  // namespace cusim::detail
