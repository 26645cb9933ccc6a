// Which blocks race checking follows in a grid over its thread budget
// (sched/race_sample.hpp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "sched/race_sample.hpp"

using cusim::detail::race_sample;

namespace {
std::vector<std::uint64_t> followed(const race_sample& sample, std::uint64_t blocks) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    if (sample.follows(b)) out.push_back(b);
  }
  return out;
}
}  // namespace

TEST_CASE("race sample: a grid within the budget, or no budget, is followed whole", "[sched][race]") {
  const race_sample within(32, 256, 8192);
  CHECK(within.follows_every_block());
  CHECK(followed(within, 32).size() == 32);
  const race_sample unlimited(1 << 20, 1024, 0);
  CHECK(unlimited.follows_every_block());
  CHECK(unlimited.follows((1 << 20) - 1));
}

TEST_CASE("race sample: pairs of neighbours spread over the grid, the first and last among them", "[sched][race]") {
  const std::uint64_t blocks = 4096;
  const race_sample sample(blocks, 256, 8192);  // 16 pairs
  REQUIRE_FALSE(sample.follows_every_block());
  CHECK(sample.followed_blocks() == 32);
  const std::vector<std::uint64_t> chosen = followed(sample, blocks);
  REQUIRE(chosen.size() == 32);
  CHECK(chosen.front() == 0);
  CHECK(chosen[1] == 1);
  CHECK(chosen[30] == blocks - 2);
  CHECK(chosen.back() == blocks - 1);
  for (std::size_t i = 0; i < chosen.size(); i += 2) {
    CHECK(chosen[i + 1] == chosen[i] + 1);  // neighbours
    if (i > 0) CHECK(chosen[i] - chosen[i - 2] >= 200);  // spread evenly: about 4094 / 15 apart
  }
}

TEST_CASE("race sample: at least two pairs, whatever the blocks' size", "[sched][race]") {
  const race_sample sample(100, 1024, 1000);
  CHECK(sample.followed_blocks() == 4);
  CHECK(followed(sample, 100) == std::vector<std::uint64_t>{0, 1, 98, 99});
  // Just over: two pairs would be all but one block of five.
  const race_sample five(5, 1024, 1);
  CHECK(followed(five, 5) == std::vector<std::uint64_t>{0, 1, 3, 4});
  const race_sample four(4, 1024, 1);
  CHECK(four.follows_every_block());
}
