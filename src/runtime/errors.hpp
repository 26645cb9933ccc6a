// CUDA's error state: each host thread's last error, and the context-wide
// sticky error that a kernel fault (device assert, illegal address) leaves
// until cudaDeviceReset.
#pragma once
#include <driver_types.h>

#include <string>

#include "support/call_site.hpp"

namespace cusim::detail {

// Records `error` as the calling host thread's last error (unless it is
// cudaSuccess) and returns it: `return set_error(cudaErrorInvalidValue);`.
// Under CUSIM_VERBOSE=1 (the default of the checking builds) it also says so
// on stderr, in one line naming the program's line that made the call (where
// its debug information places it), the API function it was called from
// (`where`) and why: `why` where the call site gives it, else the error's
// description.
cudaError_t set_error(cudaError_t error, call_site where = call_site::current());
cudaError_t set_error(cudaError_t error, const char* why,
                      call_site where = call_site::current());

// Makes CUSIM_VERBOSE default to 1: the checking runtimes (cusim-cc
// --check=..., --warp-mode=lockstep) call it before main, so a program they
// check hears of each error a CUDA call returns, as under compute-sanitizer.
void report_errors_by_default();

// A <<<>>> launch from the host at `file`:`line` failed with `error`
// (`why`: the launch checks' reason, or empty for CUDA's description). The
// launch returns nothing, so the program learns of it only by asking
// (cudaGetLastError, cudaPeekAtLastError); if it has not asked since by the
// time it exits, cusim says so on stderr: the kernel never ran, and a
// program that goes on as if it had is computing from memory the kernel
// never wrote (the first bug a learner meets: 1024 threads per block
// exceeded, too much shared memory).
void note_failed_launch(cudaError_t error, const std::string& why, const char* file, unsigned int line);

// The sticky error, or cudaSuccess. make_sticky records a kernel fault; like
// a GPU's, it surfaces at the next API call, not as the launch's own error.
cudaError_t sticky_error();
void make_sticky(cudaError_t error);
// cudaDeviceReset. After a fault, CUDA 13 leaves the device unavailable
// (cudaErrorDevicesUnavailable) for the rest of the process; cusim does too.
void reset_context();
// For cusim's own test suite only, which runs many faulting kernels in one
// process: makes the context usable again, which a real process cannot.
void forget_device_fault_for_tests();

// A launch that the device thread found it cannot run (static shared memory
// over the limit, learned as the grid ran): its error is not sticky, and
// reaches the host at its next call that reports errors, as CUDA reports
// errors of asynchronous launches: cudaGetLastError, or a synchronisation
// (take_deferred_launch_error).
void defer_launch_error(cudaError_t error);
cudaError_t take_deferred_launch_error();

// For API entry points: the sticky error, recorded as last error, if the
// context is unusable; cudaSuccess otherwise.
cudaError_t context_error();

}  // namespace cusim::detail
