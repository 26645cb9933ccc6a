// Settings of cusim's execution engine that have no CUDA equivalent.
#pragma once
#include <string>

namespace cusim {

// Worker OS threads that run blocks. Default: CUSIM_WORKERS, else one per
// core. Takes effect at the next launch; 0 restores the default.
void set_worker_count(unsigned int workers);
unsigned int worker_count();
// True when one worker was asked for (CUSIM_WORKERS=1, set_worker_count(1)),
// not merely the default of a one-core machine. Then the work of every
// stream (kernels, copies, host functions) runs on one device thread too, in
// the order it becomes ready, so that a run replays exactly; streams do not
// overlap, and a kernel that waits for another stream's kernel waits for
// ever (the watchdog says so).
bool one_worker_requested();

// Blocks one worker keeps alive (resident) at once, like the blocks an SM
// holds. Default: CUSIM_RESIDENT_BLOCKS, else 1. With more than one, a
// worker interleaves its blocks at every wait, and each keeps its own
// shared memory. 0 restores the default.
void set_resident_blocks_per_worker(unsigned int blocks);
unsigned int resident_blocks_per_worker();

// Bytes of each fiber's stack: CUSIM_STACK_SIZE if set, else 64 KiB plus 16
// times cudaLimitStackSize (a CPU frame is larger than a GPU one).
unsigned long fiber_stack_bytes();

// The schedule policy (CUSIM_SCHEDULE): "in-order" (the default), "reverse",
// "random:SEED" or "pct:SEED[,DEPTH]". It decides the order of runnable
// threads at every wait, and the order blocks and threads start in; with one
// worker a policy and seed replay a run exactly. Returns false (and changes
// nothing) for text that is not a policy. Takes effect at the next launch.
bool set_schedule(const std::string& policy);

// Registers per thread of `kernel`, for occupancy (cudaOccupancy*,
// cudaFuncGetAttributes' numRegs, cooperative launch limits) and for the
// check that a block's registers fit: a CPU has no register count of its
// own. Give the count nvcc reports (-res-usage) to get a GPU's answers.
// CUSIM_REGISTERS="kernel=N,..." does the same by name. 0 forgets it.
void set_registers_per_thread(const void* kernel, unsigned int registers);
template <class... Params>
void set_registers_per_thread(void (*kernel)(Params...), unsigned int registers) {
  set_registers_per_thread(reinterpret_cast<const void*>(kernel), registers);
}

}  // namespace cusim
