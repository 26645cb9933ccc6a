// Schedule policies (CUSIM_SCHEDULE, cusim::set_schedule): what decides the
// order of runnable threads at every suspension point, the order in which a
// block's threads start, and the order in which a grid's blocks start.
//   in-order        the default: oldest first, blocks and threads by index
//   reverse         newest first, blocks and threads from the last index
//   random:SEED     each choice drawn from a generator seeded with SEED
//   pct:SEED[,D]    priorities drawn at random per thread; the highest
//                   runnable one runs; at D-1 random points the running
//                   thread drops to the lowest (PCT: rare orders, few runs)
// With one worker (CUSIM_WORKERS=1) a policy and seed give the same run
// every time: each grid's generator is seeded from the seed and the grid's
// launch number.
#pragma once
#include <cstdint>
#include <string>

namespace cusim::detail {

enum class schedule_kind { in_order, reverse, random, pct };

struct schedule_policy {
  schedule_kind kind = schedule_kind::in_order;
  std::uint64_t seed = 0;
  unsigned int depth = 3;  // pct: change points + 1
  std::string text() const;  // as CUSIM_SCHEDULE spells it
};

// Parses a CUSIM_SCHEDULE value; false (and `policy` unchanged) if it is not one.
bool parse_schedule(const std::string& text, schedule_policy& policy);

const schedule_policy& active_schedule();
bool schedule_is_default();  // in-order: the fast paths apply

// A small fast generator (splitmix64), one per worker and grid.
class schedule_random {
 public:
  explicit schedule_random(std::uint64_t seed = 0) : state_(seed) {}
  std::uint64_t next();
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }

 private:
  std::uint64_t state_;
};

// A bijection of [0, count): the order in which `count` items (a grid's
// blocks or clusters) start under the active policy, keyed by `key` (the
// grid). O(1) per item, for grids of any size.
class start_order {
 public:
  start_order() = default;
  start_order(std::uint64_t count, std::uint64_t key);
  // i -> (a*i + b) mod n, a bijection as a and n are coprime: a = 1, b = 0
  // in order; a = b = n-1 reversed; drawn from the seed otherwise. The
  // product is taken in 128 bits: a grid may have nearly 2^63 blocks.
  std::uint64_t operator()(std::uint64_t i) const {
    return std::uint64_t((unsigned __int128){multiplier_} * i % count_ + offset_) % count_;
  }

 private:
  std::uint64_t count_ = 1, multiplier_ = 1, offset_ = 0;
};

// The line a report ends with, once per process: the schedule, and the
// command that replays the run (`CUSIM_SCHEDULE=... CUSIM_WORKERS=1 prog args`).
void note_schedule_for_replay();

}  // namespace cusim::detail
