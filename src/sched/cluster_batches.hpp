// How the clusters of a grid that several workers run reach them (a grid
// without clusters has clusters of one block): each worker takes a batch of
// consecutive clusters from the grid's counter and starts them in order,
// so that two workers streaming through arrays each read long runs of them.
// Taking alternate blocks, each worker read every other kilobyte of W1's
// arrays, which the hardware prefetchers serve badly: two workers were no
// faster than one.
//
// A worker that finds the counter exhausted takes the back half of the
// largest batch another worker holds and has not started. So a block that
// waits for a later block (which a GPU runs at once when both fit) never
// waits behind its own worker's batch while another worker is idle: an
// idle worker takes that block, as it took the next block from the counter
// before there were batches.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace cusim::detail {

class cluster_batches {
 public:
  // Worker indices [0, workers) take clusters [0, total) through `counter`
  // in batches of `batch`.
  cluster_batches(unsigned int workers, std::uint64_t batch, std::uint64_t total, std::atomic<std::uint64_t>& counter);

  // The next cluster for worker `index`; false when none is left to start.
  bool take(unsigned int index, std::uint64_t& cluster);

  // The batch size for a grid of `clusters` run by `workers`: batches of up
  // to 16 (a 256-thread block of floats streams 1 KiB of an array; 16 of
  // them are four pages), and at least 16 batches per worker, so that the
  // grid's end is shared out block by block.
  static std::uint64_t batch_for(std::uint64_t clusters, unsigned int workers);

 private:
  bool steal(unsigned int index, std::uint64_t& cluster);

  // The clusters [next, end) a worker has taken and not started.
  struct alignas(64) worker_batch {
    std::mutex lock;
    std::uint64_t next = 0;
    std::uint64_t end = 0;
  };
  std::unique_ptr<worker_batch[]> batches_;
  unsigned int workers_;
  std::uint64_t batch_;
  std::uint64_t total_;
  std::atomic<std::uint64_t>& counter_;
};

}  // namespace cusim::detail
