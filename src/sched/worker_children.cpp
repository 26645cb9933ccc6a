// The worker's part in dynamic parallelism (children.hpp): starting a
// block's recorded launches, admitting child grids' blocks, and completing
// sequences, which wakes the threads that waited for them and completes
// blocks that waited for their children.
#include <algorithm>

#include "sched/race_check.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

void worker::admit_child_blocks() {
  // Newest first: the deepest grids are what every level above waits for.
  for (auto it = sequences_.rbegin(); it != sequences_.rend(); ++it) {
    launch_sequence& sequence = **it;
    if (!sequence.running) continue;
    grid_job& grid = *sequence.running;
    const unsigned int limit = std::max(settings_.child_resident_blocks, grid.cluster_blocks());
    std::uint64_t cluster = 0;
    while (sequence.resident + grid.cluster_blocks() <= limit && grid.take_cluster(cluster)) {
      admit_cluster(grid, cluster);
    }
  }
}

launch_sequence& worker::start_children(block_state& block) {
  if (block.children != nullptr) {
    for (child_launch& launch : block.launched) block.children->queue.push_back(std::move(launch));
    block.launched.clear();
    return *block.children;
  }
  launch_sequence& sequence = *sequences_.emplace_back(std::make_unique<launch_sequence>());
  sequence.block = &block;
  block.children = &sequence;
  sequence.queue.assign(std::make_move_iterator(block.launched.begin()), std::make_move_iterator(block.launched.end()));
  block.launched.clear();
  advance(sequence);
  return sequence;
}

void worker::advance(launch_sequence& sequence) {
  if (sequence.running) return;
  if (sequence.queue.empty()) {
    complete(sequence);
    return;
  }
  child_launch next = std::move(sequence.queue.front());
  sequence.queue.pop_front();
  auto grid = std::make_unique<grid_job>(next.shape, std::move(next.invocation), *next.kernel, next.shared_limit);
  grid->depth = next.depth;
  grid->nest_under(sequence.block->grid());
  grid->set_race_start_token(next.race_token);
  grid->trace_flow = next.trace_flow;
  grid->sequence = &sequence;
  sequence.running = std::move(grid);
  sequence.resident = 0;
  sequence.finished = 0;
}

void worker::child_grid_complete(launch_sequence& sequence) {
  // Tail launches run after the grid and all its other work, before
  // anything its launcher queued after it.
  std::vector<child_launch> tails = sequence.running->take_tail_launches();
  if (device_grid_completed != nullptr) device_grid_completed(*sequence.running);
  sequence.queue.insert(sequence.queue.begin(), std::make_move_iterator(tails.begin()),
                        std::make_move_iterator(tails.end()));
  sequence.running.reset();
  // A launch is pending until its grid completes.
  sequence.block->grid().tree->pending_launches.fetch_sub(1, std::memory_order_relaxed);
  advance(sequence);
}

void worker::complete(launch_sequence& sequence) {
  ready_.append(sequence.waiters);
  block_state& block = *sequence.block;
  block.children = nullptr;
  std::erase_if(sequences_, [&](const auto& s) { return s.get() == &sequence; });
  if (block.awaiting_children) {
    block.awaiting_children = false;
    finish_block(block);
  }
}

bool worker::block_has_children() const {
  const block_state& block = *running_->thread.block;
  return !block.launched.empty() || block.children != nullptr;
}

void worker::wait_for_block_children() {
  fiber& self = *running_;
  record_loop_progress(self);
  block_state& block = *self.thread.block;
  if (block.grid().aborted()) abandon_thread();
  if (block.launched.empty() && block.children == nullptr) return;
  {
    race::runtime_scope bookkeeping;
    launch_sequence& sequence = start_children(block);
    sequence.waiters.push_back(&self);
    wait_until_woken(self, block);
  }
  race::acquire(block.grid().race_done_token());  // the children's work happens before what follows
}

}  // namespace cusim::detail
