// A hardware fault in a CUDA thread's code (platform/faults.hpp) becomes what
// a GPU makes of it: the grid stops with cudaErrorIllegalAddress, an error
// that stays (sticky) until cudaDeviceReset, and the host program goes on.
// cusim also names the block, the thread, the source line and the likely
// cause. CUSIM_ON_FAULT=abort leaves faults alone, for a debugger.
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "memory/allocations.hpp"
#include "sched/worker.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"
#include "support/source_lines.hpp"

namespace cusim::detail {

namespace {

bool faults_are_reported() {
  static const bool reported = [] {
    const auto setting = env_string("CUSIM_ON_FAULT");
    if (!setting || setting->empty() || *setting == "report") return true;
    if (*setting == "abort") return false;
    report("CUSIM_ON_FAULT={} is not a setting: use report (the default: a fault in a kernel stops its grid with "
           "cudaErrorIllegalAddress) or abort (the process gets the signal, for a debugger). Using report.",
           *setting);
    return true;
  }();
  return reported;
}

// Addresses this low are a null pointer plus an offset (an index into a
// null array, a member of a null struct).
constexpr std::uintptr_t null_page_limit = 64 * 1024;

}  // namespace

void worker::prepare_for_faults() {
  if (!platform::fault_handling_supported() || !faults_are_reported()) return;
  platform::install_fault_handlers(&worker::claim_fault);
  platform::prepare_thread_for_faults();
}

platform::fault_landing worker::claim_fault(const platform::fault& f, void*& stack_top) {
  worker* self = current();
  // (A fault while one is reported is cusim's own: it takes its usual course.)
  if (self == nullptr || self->running_ == nullptr || self->reporting_fault_) return nullptr;
  const fiber& thread = *self->running_;
  if (!thread.stack_holds(f.stack_pointer) && !thread.stack().overflowed_to(f.stack_pointer)) {
    return nullptr;  // the worker's own code, not a CUDA thread's
  }
  self->fault_ = f;
  self->reporting_fault_ = true;
  // The thread's frames are abandoned: the landing runs from the top of its
  // stack, which AddressSanitizer must not take for their redzones.
  address_check::unpoison(thread.stack().bottom(), thread.stack().size());
  stack_top = thread.stack().top();
  return &worker::after_fault;
}

void worker::after_fault() {
  worker& self = *current();
  const fiber& thread = *self.running_;
  if (!thread.stack().guarded() && self.fault_.what == platform::fault::kind::bad_address &&
      (thread.stack().overflowed_to(self.fault_.stack_pointer) || thread.stack().overflowed_to(self.fault_.address))) {
    self.stop_for_unguarded_overflow(thread, thread.thread.block->grid().kernel_name(),
                                     ", and faulted past the stacks below it");
  }
  const bool arithmetic = self.fault_.what == platform::fault::kind::arithmetic;
  self.fail_grid(self.describe_fault(), arithmetic ? cudaErrorLaunchFailure : cudaErrorIllegalAddress);
  self.reporting_fault_ = false;
  self.abandon_thread();
}

std::string worker::describe_fault() const {
  const platform::fault& f = fault_;
  const fiber& thread = *running_;
  // source_lines places return addresses: one past the faulting instruction.
  const void* after = static_cast<const char*>(f.instruction) + 1;
  const std::string where = source_lines({after})[after];
  const auto address = reinterpret_cast<std::uintptr_t>(f.address);
  const char* hint = "CUSIM_ON_FAULT=abort lets the process take the signal instead, for a debugger.";
  switch (f.what) {
    case platform::fault::kind::arithmetic:
      return fmt::format("{} at {}: on a GPU the result is unspecified and the kernel goes on; on a CPU it traps, "
                         "and cusim cannot go on from there. {}",
                         f.division_by_zero ? "an integer division by zero" : "an arithmetic fault", where, hint);
    case platform::fault::kind::bus_error:
      return fmt::format("an illegal memory access at {}: a bus error at address {:#x} (a misaligned access, or a "
                         "mapped file shorter than the mapping). {}",
                         where, address, hint);
    case platform::fault::kind::bad_address: break;
  }
  if (thread.stack().overflowed_to(f.stack_pointer) || thread.stack().overflowed_to(f.address)) {
    return fmt::format("a stack overflow at {}: the thread's local variables and calls outgrew its {} KiB stack "
                       "(a deep recursion, or large local arrays). CUSIM_STACK_SIZE (bytes) or "
                       "cudaDeviceSetLimit(cudaLimitStackSize, ...) before the launch gives threads more. {}",
                       where, thread.stack().size() / 1024, hint);
  }
  const std::string past = describe_address_past_allocation(f.address);
  const std::string cause =
      address < null_page_limit ? "a null pointer, or an offset from one"
      : !past.empty()           ? past + ": an index past the end of the buffer, which a GPU's memory does not hold either"
                                : "nothing is mapped there: an uninitialised, freed or out-of-bounds pointer; a build "
                                  "with cusim-cc --check=memory names the allocation it came from";
  return fmt::format("an illegal memory access at {}: address {:#x} ({}). {}", where, address, cause, hint);
}

}  // namespace cusim::detail
