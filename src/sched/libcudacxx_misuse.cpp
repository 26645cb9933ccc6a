// Reports of libcu++ misuse in device code (include/cuda/cuda/barrier,
// pipeline, cuda_pipeline.h): what was wrong, with the numbers a user needs;
// the grid stops as a GPU's would (device_failure.hpp).
#include <cusim/detail/arrival_barrier.hpp>
#include <cusim/detail/async_copy.hpp>

#include <fmt/format.h>

#include "sched/device_failure.hpp"

namespace cusim::detail {

void arrival_barrier::too_many_arrivals(const char* what, std::uint32_t count, std::uint32_t pending,
                                        const char* file, unsigned int line) {
  stop_grid_with(cudaErrorLaunchFailure, file, line,
                 "{}: {} arrival{} where the barrier's phase expects {} more (more than the count given to init: "
                 "undefined behaviour in CUDA)",
                 what, count, count == 1 ? "" : "s", pending);
}

void report_misaligned_copy(const void* dst, const void* src, std::size_t bytes, std::size_t alignment,
                            const char* file, unsigned int line) {
  // The H200's answer to such a copy.
  stop_grid_with(
      cudaErrorMisalignedAddress, file, line,
      "memcpy_async of {} bytes from {} to {} promises {}-byte alignment (aligned_size_t<{}>) that the {} lacks", bytes,
      src, dst, alignment, alignment,
      bytes % alignment != 0 ? "size" : reinterpret_cast<std::uintptr_t>(dst) % alignment != 0 ? "destination" : "source");
}

}  // namespace cusim::detail
