// Hardware faults in kernels (a null or wild pointer, a stack overflow into
// a fiber's guard page, an integer division by zero): the platform's part.
// A handler for SIGSEGV, SIGBUS and SIGFPE, run on an alternate stack (a
// thread whose stack overflowed has none left), asks the scheduler whether
// the fault belongs to a CUDA thread. If it does, the faulting code does not
// resume: the handler returns into a landing function on a stack the
// scheduler names, which reports and abandons the CUDA thread
// (sched/worker_faults.cpp). Any other fault goes to the handler that was
// installed before (a sanitizer's, the program's) or kills the process as
// usual.
//
// Linux on x86-64 and arm64 redirect the interrupted context; elsewhere
// fault_handling_supported() is false and faults keep their usual course.
#pragma once

namespace cusim::detail::platform {

struct fault {
  enum class kind { bad_address, bus_error, arithmetic };
  kind what = kind::bad_address;
  const void* address = nullptr;        // the address accessed (bad_address, bus_error)
  const void* instruction = nullptr;    // the faulting instruction
  const void* stack_pointer = nullptr;  // the interrupted code's
  bool division_by_zero = false;        // arithmetic: an integer division by zero
};

// Called in the signal handler, on the faulting OS thread: returns the
// function to resume in (it must never return) and sets `stack_top` to the
// top of the stack to run it on, or returns nullptr to decline the fault.
// Runs in a signal handler: no allocation, no locks.
using fault_landing = void (*)();
using fault_claim = fault_landing (*)(const fault& f, void*& stack_top);

bool fault_handling_supported();

// Installs the handlers (once per process; later calls do nothing).
void install_fault_handlers(fault_claim claim);

// Gives the calling OS thread an alternate signal stack, once; freed when
// the thread ends.
void prepare_thread_for_faults();

}  // namespace cusim::detail::platform
