// execution_context::switch_to inline, for the waits' hot path: with cusim's
// own stack switch and no sanitizer to tell, a switch is the few
// instructions of cusim_switch_stacks, and the two calls that reach it
// through context.cpp cost a third as much again. Other builds call
// switch_to. The choice depends on the build's sanitizers, so only sources
// compiled once per checking runtime may include this header (address_check.hpp
// refuses the others).
#pragma once
#include "fiber/context.hpp"
#include "fiber/sanitizer_fibers.hpp"
#include "fiber/stack_switch.hpp"

namespace cusim::detail {

inline void switch_inline(execution_context& from, execution_context& to) {
#ifdef CUSIM_OWN_STACK_SWITCH
  if constexpr (!sanitizer_fibers::asan && !sanitizer_fibers::tsan) {
    cusim_switch_stacks(&from.suspended_, to.suspended_);
    return;
  }
#endif
  from.switch_to(to);
}

}  // namespace cusim::detail
