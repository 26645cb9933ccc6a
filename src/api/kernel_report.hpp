// The kernel report (CUSIM_REPORT=1, or =json): one entry per kernel launch
// as it ends, for learners to see what the GPU model made of it: the
// launch's shape, warps per block with the idle lanes of a partial last
// warp, shared memory per block, the theoretical occupancy on the modelled
// GPU with the resource that limits it (as cudaOccupancy* computes it), the
// outcome and the wall time. Off by default: one branch per launch.
#pragma once
#include <chrono>

#include <cuda_runtime_api.h>

namespace cusim::detail {

class grid_job;

enum class report_format { off, text, json };
report_format kernel_report_format();

void report_kernel(const grid_job& grid, std::chrono::steady_clock::duration wall, cudaError_t outcome);

}  // namespace cusim::detail
