#include "sched/cluster_batches.hpp"

#include <algorithm>

namespace cusim::detail {

cluster_batches::cluster_batches(unsigned int workers, std::uint64_t batch, std::uint64_t total,
                                 std::atomic<std::uint64_t>& counter)
    : batches_(std::make_unique<worker_batch[]>(workers)), workers_(workers), batch_(batch), total_(total), counter_(counter) {}

std::uint64_t cluster_batches::batch_for(std::uint64_t clusters, unsigned int workers) {
  constexpr std::uint64_t largest = 16, batches_per_worker = 16;
  return std::clamp<std::uint64_t>(clusters / (std::uint64_t{workers} * batches_per_worker), 1, largest);
}

bool cluster_batches::take(unsigned int index, std::uint64_t& cluster) {
  {
    worker_batch& mine = batches_[index];
    // The batch is filled under its lock: a worker that then finds the
    // counter exhausted (and looks for a batch to steal from) finds it.
    std::lock_guard lock(mine.lock);
    if (mine.next < mine.end) {
      cluster = mine.next++;
      return true;
    }
    const std::uint64_t first = counter_.fetch_add(batch_, std::memory_order_relaxed);
    if (first < total_) {
      cluster = first;
      mine.next = first + 1;
      mine.end = std::min(total_, first + batch_);
      return true;
    }
  }
  return steal(index, cluster);
}

bool cluster_batches::steal(unsigned int index, std::uint64_t& cluster) {
  for (;;) {
    unsigned int victim = workers_;
    std::uint64_t most = 0;
    for (unsigned int i = 0; i < workers_; ++i) {
      if (i == index) continue;
      std::lock_guard lock(batches_[i].lock);
      if (batches_[i].end - batches_[i].next > most) {
        most = batches_[i].end - batches_[i].next;
        victim = i;
      }
    }
    if (victim == workers_) return false;
    std::uint64_t first = 0, end = 0;
    {
      worker_batch& other = batches_[victim];
      std::lock_guard lock(other.lock);
      const std::uint64_t left = other.end - other.next;
      if (left == 0) continue;  // started meanwhile: look again
      end = other.end;
      first = end - (left + 1) / 2;
      other.end = first;
    }
    worker_batch& mine = batches_[index];
    std::lock_guard lock(mine.lock);
    cluster = first;
    mine.next = first + 1;
    mine.end = end;
    return true;
  }
}

}  // namespace cusim::detail
