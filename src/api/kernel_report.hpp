// The kernel report (CUSIM_REPORT=1, =json or =summary): for learners to see
// what the GPU model made of each launch. Per launch from the host, as it
// ends: the launch's shape, warps per block with the idle lanes of a partial
// last warp, shared memory per block, the theoretical occupancy on the
// modelled GPU with the resource that limits it (as cudaOccupancy* computes
// it), what the threads did (barriers, warp collectives, atomics, fences,
// launches from the device, and the grids those launched), the outcome and
// the wall time. At program exit, a table of every kernel that ran
// (api/kernel_summary.hpp). Off by default: one branch per launch.
#pragma once
#include <chrono>
#include <cstddef>

#include <cuda_runtime_api.h>

namespace cusim::detail {

class grid_job;

enum class report_format { off, text, json, summary };
report_format kernel_report_format();
inline bool kernel_report_on() { return kernel_report_format() != report_format::off; }

// The fiber stacks: the most any CUDA thread has used so far (to the page),
// and what each thread has.
struct stack_use {
  std::size_t deepest = 0;
  std::size_t size = 0;
};

// A grid launched from the host (or a tail launch of one, `from_host`
// false) has ended, with the grids it launched.
void report_kernel(const grid_job& grid, bool from_host, std::chrono::steady_clock::duration wall,
                   cudaError_t outcome, stack_use stacks);
// A grid launched from the device has completed: counted for its launch
// tree's report and the summary.
void report_device_grid(const grid_job& grid);

}  // namespace cusim::detail
