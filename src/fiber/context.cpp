// What execution_context does in every build (context.hpp): the sanitizers'
// view of each switch, and race checking's identities. The raw switch is
// the back end's file.
#include "fiber/context.hpp"

#include "fiber/sanitizer_fibers.hpp"

namespace cusim::detail {

using namespace sanitizer_fibers;

execution_context::~execution_context() {
  if constexpr (race_identities) {
    if (own_ignores_) {
      // TSan reports a fiber destroyed while it ignores accesses: end that first.
      void* current = current_fiber();
      switch_to_fiber(own_tsan_fiber_, /*synchronising=*/false);
      ignore_accesses_end();
      switch_to_fiber(current, /*synchronising=*/false);
    }
    if (thread_tsan_fiber_ != nullptr && tsan_fiber_ == thread_tsan_fiber_) tsan_fiber_ = own_tsan_fiber_;
    if (thread_tsan_fiber_ != nullptr) destroy_fiber(thread_tsan_fiber_);
  }
  // Only fibers this context created; an OS thread's own belongs to TSan.
  if constexpr (tsan) {
    if (tsan_fiber_ != nullptr && is_fiber_) destroy_fiber(tsan_fiber_);
  }
}

void execution_context::prepare(void* stack_bottom, std::size_t stack_size, void (*entry)(void*), void* arg) {
  is_fiber_ = true;
  stack_bottom_ = stack_bottom;
  stack_size_ = stack_size;
  entry_ = entry;
  arg_ = arg;
  prepare_switch(static_cast<char*>(stack_bottom) + stack_size, stack_size);
  forget_stack(stack_bottom, stack_size);
  if constexpr (tsan) {
    if (tsan_fiber_ == nullptr) tsan_fiber_ = create_fiber();
  }
  // A thread abandoned (assert, a stopped grid) leaves its identity behind.
  if constexpr (race_identities) {
    if (thread_tsan_fiber_ != nullptr) {
      tsan_fiber_ = own_tsan_fiber_;
      destroy_fiber(thread_tsan_fiber_);
      thread_tsan_fiber_ = nullptr;
    }
  }
}

void execution_context::switch_to(execution_context& to) {
  start_switch(&asan_fake_stack_, to.stack_bottom_, to.stack_size_);
  if constexpr (tsan) {
    if (tsan_fiber_ == nullptr) tsan_fiber_ = current_fiber();
    switch_to_fiber(to.tsan_fiber_, switches_synchronise);
  }
  raw_switch_to(to);
}

void execution_context::begin_race_identity([[maybe_unused]] const char* name) {
  if constexpr (race_identities) {
    thread_tsan_fiber_ = create_fiber();
    name_fiber(thread_tsan_fiber_, name);
  }
}

void execution_context::enter_race_identity() {
  if constexpr (race_identities) {
    tsan_fiber_ = thread_tsan_fiber_;
    switch_to_fiber(tsan_fiber_, /*synchronising=*/false);
  }
}

void execution_context::leave_race_identity() {
  if constexpr (race_identities) {
    tsan_fiber_ = own_tsan_fiber_;
    switch_to_fiber(tsan_fiber_, /*synchronising=*/false);
  }
}

void execution_context::end_race_identity() {
  if constexpr (race_identities) {
    if (in_race_identity()) leave_race_identity();
    destroy_fiber(thread_tsan_fiber_);
    thread_tsan_fiber_ = nullptr;
  }
}

void execution_context::arrived([[maybe_unused]] execution_context* from) {
  if constexpr (asan) {
    const void* old_bottom = nullptr;
    std::size_t old_size = 0;
    finish_switch(asan_fake_stack_, &old_bottom, &old_size);
    if (from->stack_bottom_ == nullptr) {
      // Learn the OS thread's own stack the first time we leave it.
      from->stack_bottom_ = const_cast<void*>(old_bottom);
      from->stack_size_ = old_size;
    }
  }
}

void execution_context::run_entry() {
  execution_context* self = this;
  // The fiber's own identity runs only cusim's code: TSan ignores it.
  if constexpr (race_identities) {
    if (!self->own_ignores_) {
      self->own_tsan_fiber_ = self->tsan_fiber_;
      ignore_accesses_begin();
      self->own_ignores_ = true;
    }
  }
  self->entry_(self->arg_);
  __builtin_unreachable();  // entry functions never return
}

}  // namespace cusim::detail
