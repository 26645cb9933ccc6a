// execution_context's raw switch on x86-64 Linux: cusim_switch_stacks
// (stack_switch.hpp says why not Boost's). CMake builds this file or
// context_boost.cpp.
#include "fiber/context.hpp"
#include "fiber/sanitizer_fibers.hpp"
#include "fiber/stack_switch.hpp"

#ifndef CUSIM_OWN_STACK_SWITCH
#error "context_own_switch.cpp is built only where stack_switch.hpp has the switch (src/CMakeLists.txt picks the back end)"
#endif

namespace cusim::detail {

namespace {
// The context leaving, for the side a switch resumes (the switch stores the
// stack pointer itself and passes nothing): ASan learns its stack.
thread_local execution_context* switching_from = nullptr;
}  // namespace

struct context_backend {
  static void start(void* self) {
    auto* context = static_cast<execution_context*>(self);
    if constexpr (sanitizer_fibers::asan) context->arrived(switching_from);
    context->run_entry();
  }
};

void execution_context::prepare_switch(void* stack_top, std::size_t) {
  suspended_ = cusim_prepare_stack(stack_top, &context_backend::start, this);
}

void execution_context::raw_switch_to(execution_context& to) {
  if constexpr (sanitizer_fibers::asan) switching_from = this;
  cusim_switch_stacks(&suspended_, to.suspended_);
  if constexpr (sanitizer_fibers::asan) arrived(switching_from);
}

}  // namespace cusim::detail
