#include "sched/cluster.hpp"

namespace cusim::detail {

void cluster_state::start(std::vector<block_state*> blocks, std::uint64_t threads) {
  blocks_ = std::move(blocks);
  threads_ = threads;
  exited_ = arrived_ = completed_ = 0;
  finished_ = 0;
  waiters_ = fiber_queue{};
}

std::uint64_t cluster_state::arrive(fiber_queue& woken) {
  const std::uint64_t phase = completed_;
  ++arrived_;
  complete_if_all_arrived(woken);
  return phase;
}

void cluster_state::park(fiber& self, std::uint64_t phase) {
  self.cluster_phase = phase;
  waiters_.push_back(&self);
}

void cluster_state::threads_exited(unsigned int count, fiber_queue& woken) {
  exited_ += count;
  complete_if_all_arrived(woken);
}

// Waiters of the completed phase go on in the order they started waiting.
void cluster_state::complete_if_all_arrived(fiber_queue& woken) {
  if (arrived_ == 0 || arrived_ + exited_ < threads_) return;
  arrived_ = 0;
  ++completed_;
  woken.append(waiters_);
}

}  // namespace cusim::detail
