// Occupancy as CUDA's calculator computes it, from the active profile: how
// many blocks of a kernel one multiprocessor holds at once, limited by warps,
// by blocks and by shared memory. Registers are assumed not to limit: cusim
// does not know how many a kernel would use (at 32 a thread, the 64K
// registers of every profile hold as many threads as the SM can).
#pragma once
#include <cstddef>

namespace cusim::detail {

struct kernel_info;

int resident_blocks_per_multiprocessor(const kernel_info& kernel, unsigned int threads_per_block,
                                       std::size_t dynamic_shared_bytes);

}  // namespace cusim::detail
