#include "fiber/context.hpp"

#if defined(CUSIM_SANITIZE_address)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define CUSIM_ASAN 1
#endif
#if defined(CUSIM_SANITIZE_thread)
#include <sanitizer/tsan_interface.h>
#define CUSIM_TSAN 1
#endif

namespace ctx = boost::context::detail;

namespace cusim::detail {

// Passed through the switch so the resumed side can record where the
// suspended side stopped, and a starting fiber can find itself.
struct execution_context::handoff {
  execution_context* from;
  execution_context* to;
};

execution_context::~execution_context() {
#ifdef CUSIM_TSAN
  // Only fibers this context created; an OS thread's own belongs to TSan.
  if (tsan_fiber_ != nullptr && is_fiber_) __tsan_destroy_fiber(tsan_fiber_);
#endif
}

void execution_context::prepare(void* stack_bottom, std::size_t stack_size, void (*entry)(void*), void* arg) {
  is_fiber_ = true;
  stack_bottom_ = stack_bottom;
  stack_size_ = stack_size;
  entry_ = entry;
  arg_ = arg;
  suspended_ = ctx::make_fcontext(static_cast<char*>(stack_bottom) + stack_size, stack_size, &trampoline);
#ifdef CUSIM_ASAN
  // Frames abandoned by an earlier use of this stack may have left poison.
  __asan_unpoison_memory_region(stack_bottom, stack_size);
#endif
#ifdef CUSIM_TSAN
  if (tsan_fiber_ == nullptr) tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

void execution_context::switch_to(execution_context& to) {
  handoff h{this, &to};
#ifdef CUSIM_ASAN
  __sanitizer_start_switch_fiber(&asan_fake_stack_, to.stack_bottom_, to.stack_size_);
#endif
#ifdef CUSIM_TSAN
  if (tsan_fiber_ == nullptr) tsan_fiber_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(to.tsan_fiber_, 0);
#endif
  arrived(ctx::jump_fcontext(to.suspended_, &h));
}

void execution_context::arrived(ctx::transfer_t transfer) {
  auto* h = static_cast<handoff*>(transfer.data);
  h->from->suspended_ = transfer.fctx;
#ifdef CUSIM_ASAN
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &old_bottom, &old_size);
  if (h->from->stack_bottom_ == nullptr) {
    // Learn the OS thread's own stack the first time we leave it.
    h->from->stack_bottom_ = const_cast<void*>(old_bottom);
    h->from->stack_size_ = old_size;
  }
#endif
}

void execution_context::trampoline(ctx::transfer_t transfer) {
  auto* h = static_cast<handoff*>(transfer.data);
  execution_context* self = h->to;
  self->arrived(transfer);
  self->entry_(self->arg_);
  __builtin_unreachable();  // entry functions never return
}

}  // namespace cusim::detail
