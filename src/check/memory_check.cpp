// Where addresses are checked (libcusim-memcheck, for cusim-cc
// --check=memory, and ASan builds of cusim; support/address_check.hpp).
// AddressSanitizer names the OS thread and the
// allocation it knows; cusim adds what a CUDA programmer needs: which CUDA
// thread made the access, and what a shared-memory or device-heap address
// is, where ASan would only see one large runtime allocation.
#include "support/address_check.hpp"
#ifdef CUSIM_ASAN
#include <string>

#include <cusim/detail/builtins.hpp>

#include "check/address_description.hpp"
#include "runtime/errors.hpp"
#include "sched/block.hpp"
#include "sched/grid.hpp"
#include "sched/schedule.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

#ifdef CUSIM_MEMORY_CHECK
// A checked program hears of each error a CUDA call returns (runtime/errors.hpp).
[[maybe_unused]] const bool errors_reported = (report_errors_by_default(), true);
#endif

void address_check::explain_bad_free(const char* api, const void* p) {
  void* frames[1];
  int thread = 0;
  if (__asan_get_free_stack(const_cast<void*>(p), frames, 1, &thread) == 0) {
    report("{} was given {}, which is not the start of an allocation it frees. It returns cudaErrorInvalidValue.",
           api, p);
    return;
  }
  report("{} was given {}, which was freed already (a double free): where it was allocated and freed follows. It "
         "returns cudaErrorInvalidValue.",
         api, p);
  __asan_describe_address(const_cast<void*>(p));
}

}  // namespace cusim::detail

// ASan calls this as it reports an error, before the process ends.
extern "C" void __asan_on_error() {
  using namespace cusim::detail;
  const void* address = __asan_get_report_address();
  const std::string where = address == nullptr ? std::string() : describe_device_address(address);
  const std::string what = where.empty() ? std::string() : fmt::format(" {} is {}.", address, where);
  if (const thread_context* t = current_thread) {
    const uint3 index = thread_index_of(*t);
    report("memory error in kernel {}, block ({},{},{}), thread ({},{},{}): the bad access is the one at the top "
           "of the stack below.{}",
           t->block->grid().kernel_name(), t->block_idx.x, t->block_idx.y, t->block_idx.z, index.x,
           index.y, index.z, what);
    note_schedule_for_replay();
  } else if (!what.empty()) {
    report("memory error in host code:{}", what);
  }
}
#endif
