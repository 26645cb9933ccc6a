// The table the kernel report prints at program exit: per kernel, how many
// grids ran (from the host, from the device), their blocks and threads, what
// those threads did and the wall time of the host launches.
#pragma once
#include <chrono>
#include <string>

#include <cusim/detail/builtins.hpp>

namespace cusim::detail {

class grid_job;

// Adds a finished grid; the first call arranges for the table at exit.
// `wall`: the host launch's wall time (zero for a grid the device launched).
void add_to_summary(const grid_job& grid, bool from_host, std::chrono::steady_clock::duration wall, bool json);

}  // namespace cusim::detail
