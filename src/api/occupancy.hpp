// Occupancy as CUDA's occupancy calculator computes it, from the active
// profile: how many blocks of a kernel one multiprocessor holds at once,
// limited by warps (a block holds ceil(T/32) of them), by blocks, by shared
// memory (allocated in 128-byte units, each block with the part the system
// reserves) and by registers (allocated per warp in units of 256, spread
// over the multiprocessor's four partitions).
//
// Registers per thread are unknown on a CPU. cusim takes them, in this
// order, from cusim::set_registers_per_thread, from CUSIM_REGISTERS
// ("kernel=N,..."), or from a __launch_bounds__ with a minimum of blocks
// (the most registers the compiler may then use); otherwise registers are
// assumed not to limit (as at 32 or fewer a thread).
#pragma once
#include <cstddef>

namespace cusim::detail {

struct kernel_info;

struct register_use {
  unsigned int per_thread = 0;  // 0: unknown
  const char* source = "unknown: assumed not to limit occupancy";
};
register_use registers_of(const void* function);

enum class occupancy_limit { warps, blocks, shared_memory, registers };

struct occupancy {
  int blocks_per_multiprocessor = 0;
  occupancy_limit limited_by = occupancy_limit::warps;
};

occupancy occupancy_of(const kernel_info& kernel, const void* function, unsigned int threads_per_block,
                       std::size_t dynamic_shared_bytes);
int resident_blocks_per_multiprocessor(const kernel_info& kernel, const void* function,
                                       unsigned int threads_per_block, std::size_t dynamic_shared_bytes);

// True when one block of `threads_per_block` threads needs more registers
// than a block may have: a GPU refuses such a launch
// (cudaErrorLaunchOutOfResources).
bool too_many_registers(const void* function, unsigned int threads_per_block);

}  // namespace cusim::detail
