// The timeline trace (CUSIM_TRACE=out.json): what ran where and when, as a
// Chrome trace (the JSON that ui.perfetto.dev and chrome://tracing open).
// Blocks are placed on the emulated GPU's multiprocessors as a GPU hands
// them out; each block is a span on a slot of its multiprocessor, with the
// __syncthreads waits nested in it, its warps' collectives on tracks of
// their own, and an arrow from each device-side launch to the child grid's
// first block. Host API calls and the work of each stream have host tracks.
//
// Recording appends to a buffer of the calling OS thread; the file is laid
// out and written at exit (trace_file.cpp). Off by default: every hook is
// behind `trace::enabled`, one predictable branch.
//
// The trace sits below the engine (sched/): the engine hands it what it
// records as plain values (grid_identity, block_identity), and the trace
// knows nothing of grids and blocks.
#pragma once
#include <cstdint>
#include <string>

#include <vector_types.h>

namespace cusim::detail::trace {

// A grid, as its spans name it (grid_job::trace_identity()).
struct grid_identity {
  std::uint64_t serial = 0;
  std::string kernel;
  dim3 grid, block;
  std::uint64_t flow = 0;  // launched from the device: the launch's flow id
};
// A block of a grid (block_state::trace_identity()).
struct block_identity {
  std::uint64_t grid = 0;
  std::uint64_t linear = 0;
};

extern const bool enabled;

// Nanoseconds since the trace began.
std::int64_t now();

// A block of `grid` ran from `start` to `end` on the calling worker thread.
// The grid is noted (note_grid) before its first block.
void block(block_identity block, std::int64_t start, std::int64_t end);
// What the trace shows of a grid: once per grid.
void note_grid(const grid_identity& grid);
// The block's threads waited at a __syncthreads (file:line, when known) from
// the first arrival at `start` until its release at `end`.
void barrier(block_identity block, std::int64_t start, std::int64_t end, const char* file, unsigned int line);
// A collective of warp `warp` of the block, from the first lane's arrival to completion.
void collective(block_identity block, unsigned int warp, const char* op, std::int64_t start, std::int64_t end,
                const char* file, unsigned int line);
// A thread of `block` launches a grid now: returns the id that ties the
// launch to the child grid (grid_job::trace_flow).
std::uint64_t device_launch(block_identity block);

// The host side: an API call on the calling host thread, and a piece of a
// stream's work (`stream`: its cudaStream_t; null: the default stream).
void host_call(const char* api, const char* detail, std::int64_t start, std::int64_t end);
void stream_work(const void* stream, const std::string& what, std::int64_t start, std::int64_t end);

// Spans a host API call while in scope; `detail` (such as the kernel a
// launch starts) follows the call's name.
class host_call_scope {
 public:
  explicit host_call_scope(const char* api, const char* detail = nullptr)
      : api_(api), detail_(detail), start_(enabled ? now() : 0) {}
  ~host_call_scope() {
    if (enabled) host_call(api_, detail_, start_, now());
  }
  host_call_scope(const host_call_scope&) = delete;
  host_call_scope& operator=(const host_call_scope&) = delete;

 private:
  const char* api_;
  const char* detail_;
  std::int64_t start_;
};

}  // namespace cusim::detail::trace
