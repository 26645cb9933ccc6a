// Child grids of dynamic parallelism, run by the worker of the block that
// launched them. A block's launches wait until one of its threads calls the
// legacy device-side cudaDeviceSynchronize() or until all its threads have
// exited; then they run one after another in launch order, each grid with
// everything it launched, while the launching block stays resident (parked
// threads, or a block that is not complete until its children are). Running
// a block's launches in order satisfies every ordering the device runtime
// promises (the block's NULL stream, named streams, events: all order later
// work after earlier), and keeping them on one worker lets a parked parent
// thread be woken without crossing OS threads.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>

#include "sched/fiber.hpp"
#include "sched/grid.hpp"

namespace cusim::detail {

class block_state;

struct launch_sequence {
  block_state* block = nullptr;       // whose launches these are
  std::deque<child_launch> queue;     // not started yet, in order
  std::unique_ptr<grid_job> running;  // the child grid running now, if any
  unsigned int resident = 0;          // its blocks resident on the worker now
  std::uint64_t finished = 0;         // its blocks complete
  fiber_queue waiters;                // threads in a legacy cudaDeviceSynchronize()
};

}  // namespace cusim::detail
