#include "fiber/stack_switch.hpp"

#ifdef CUSIM_OWN_STACK_SWITCH
#include <cstdint>

// The System V ABI's callee-saved registers are rbx, rbp and r12-r15 (and
// the x87 control word and MXCSR, which kernels never change: fibers of one
// worker share its OS thread's floating-point environment). A fresh stack
// starts at cusim_stack_start with the entry function in r12 and its
// argument in r13.
asm(R"(
  .text
  .globl cusim_switch_stacks
  .type cusim_switch_stacks, @function
  .p2align 4
cusim_switch_stacks:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size cusim_switch_stacks, .-cusim_switch_stacks

  .globl cusim_stack_start
  .type cusim_stack_start, @function
  .p2align 4
cusim_stack_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r13, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size cusim_stack_start, .-cusim_stack_start
  .section .note.GNU-stack,"",@progbits
  .text
)");

extern "C" void cusim_stack_start();

namespace cusim::detail {

void* cusim_prepare_stack(void* top, void (*start)(void*), void* arg) {
  // The frame cusim_switch_stacks pops: r15 r14 r13 r12 rbx rbp, then the
  // return address. After those seven words the stack pointer must be a
  // multiple of 16, as at any call instruction.
  auto end = (reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15}) - 16;
  auto* frame = reinterpret_cast<void**>(end) - 7;
  frame[0] = nullptr;                                   // r15
  frame[1] = nullptr;                                   // r14
  frame[2] = arg;                                       // r13
  frame[3] = reinterpret_cast<void*>(start);            // r12
  frame[4] = nullptr;                                   // rbx
  frame[5] = nullptr;                                   // rbp
  frame[6] = reinterpret_cast<void*>(&cusim_stack_start);  // return address
  return frame;
}

}  // namespace cusim::detail
#endif
