// A thread-block cluster while it runs: its blocks, all resident on one
// worker from the first block's start to the last one's end (so peers'
// shared memory stays backed while any block of the cluster may read it),
// and the cluster barrier behind cluster.sync() and its split
// barrier_arrive() / barrier_wait().
#pragma once
#include <cstdint>
#include <vector>

#include "sched/fiber.hpp"

namespace cusim::detail {

class block_state;

class cluster_state {
 public:
  // `blocks` by rank; `threads`: every thread of every block.
  void start(std::vector<block_state*> blocks, std::uint64_t threads);

  unsigned int size() const { return static_cast<unsigned int>(blocks_.size()); }
  block_state& block(unsigned int rank) const { return *blocks_[rank]; }
  const std::vector<block_state*>& blocks() const { return blocks_; }

  // The barrier. An arrival belongs to the current phase and returns it; a
  // phase completes when every thread of the cluster that has not exited
  // has arrived. wait() parks `self` unless `phase` has completed.
  std::uint64_t arrive(fiber_queue& woken);
  bool passed(std::uint64_t phase) const { return completed_ > phase; }
  std::uint64_t phase() const { return completed_; }  // the one arrivals join now
  void park(fiber& self, std::uint64_t phase);
  void threads_exited(unsigned int count, fiber_queue& woken);

  // A block finished; true when it was the cluster's last.
  bool block_finished() { return ++finished_ == blocks_.size(); }

  std::uint64_t arrived() const { return arrived_; }
  std::uint64_t live_threads() const { return threads_ - exited_; }

 private:
  void complete_if_all_arrived(fiber_queue& woken);

  std::vector<block_state*> blocks_;
  std::uint64_t threads_ = 0;
  std::uint64_t exited_ = 0;
  std::uint64_t arrived_ = 0;
  std::uint64_t completed_ = 0;  // phases completed; the current phase is this number
  std::size_t finished_ = 0;
  fiber_queue waiters_;
};

}  // namespace cusim::detail
