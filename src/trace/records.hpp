// What the trace recorder keeps until exit, and what the file writer lays
// out (trace.hpp): one record per span, launch or piece of stream work.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <vector_types.h>

namespace cusim::detail::trace {

struct record {
  enum class kind : std::uint8_t { block, barrier, collective, launch, host_call, stream_work };
  kind what{};
  std::uint64_t grid = 0;    // the grid's serial (block, barrier, collective, launch)
  std::uint64_t linear = 0;  // the block's linear index in it
  std::uint64_t id = 0;      // launch: the flow's id; stream_work: the stream's number
  unsigned int thread = 0;   // the OS thread that recorded it (cusim's own numbering)
  unsigned int warp = 0;     // collective
  std::int64_t start = 0, end = 0;
  const char* name = nullptr;  // the operation, the API call, or the barrier's file
  unsigned int line = 0;
  std::string text;  // stream work: what ran
};

// A grid, once for all its records.
struct grid_record {
  std::uint64_t serial = 0;
  std::string kernel;
  dim3 grid_dim, block_dim;
  int device = 0;
  int multiprocessors = 1;  // of the modelled GPU: where its blocks are placed
  std::uint64_t flow = 0;   // launched from the device: the launch's flow id
};

struct recorded {
  std::vector<record> records;
  std::vector<grid_record> grids;
  std::vector<std::string> stream_names;  // by stream number - 1
  std::uint64_t dropped = 0;              // records past the limit
};

// Lays out `everything` as Chrome trace JSON into `path`; false (and a
// report) when the file cannot be written.
bool write_trace_file(const std::string& path, recorded& everything);

}  // namespace cusim::detail::trace
