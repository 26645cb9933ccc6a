// The raw switch between stacks, on x86-64 Linux. Boost.Context's
// jump_fcontext leaves by an indirect jump, so the call that entered it is
// never matched by a return: the CPU's return-address predictor is then one
// entry off, and every return the resumed fiber makes on its way back to the
// kernel mispredicts (about 20 ns per switch, measured on a barrier). This
// switch enters by a call and leaves by a return, like any function: fibers
// parked at the same call site resume with every return predicted.
// Elsewhere (other CPUs, other object formats, -DCUSIM_PLATFORM=generic)
// Boost.Context does the switch.
#pragma once
#if !defined(CUSIM_PLATFORM_GENERIC) && defined(__x86_64__) && defined(__ELF__)
#define CUSIM_OWN_STACK_SWITCH 1

namespace cusim::detail {

extern "C" {
// Pushes the callee-saved registers on the running stack, stores the stack
// pointer in `*save`, and goes on from `resume`: a stack pointer stored by an
// earlier switch, or one made by cusim_prepare_stack.
void cusim_switch_stacks(void** save, void* resume);
}

// Lays out a fresh stack below `top` so that switching to the returned
// pointer calls `start(arg)` (which must never return).
void* cusim_prepare_stack(void* top, void (*start)(void*), void* arg);

}  // namespace cusim::detail
#endif
