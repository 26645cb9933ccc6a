#include "fiber/context.hpp"

#include "support/address_check.hpp"  // defines CUSIM_ASAN where addresses are checked
#if defined(CUSIM_SANITIZE_thread) || defined(CUSIM_RACE_CHECK)
#include <sanitizer/tsan_interface.h>
// Exported by TSan's runtime, not declared by GCC 12's header: the calling
// thread's (fiber's) accesses are ignored from then on.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#define CUSIM_TSAN 1
#endif

namespace {
// Checking races, a switch orders nothing: CUDA's synchronisation does
// (sched/race_check.hpp). Checking cusim itself, a switch orders the fibers
// of one worker as their OS thread's program order does.
#ifdef CUSIM_RACE_CHECK
constexpr unsigned int tsan_switch_flags = __tsan_switch_to_fiber_no_sync;
#else
[[maybe_unused]] constexpr unsigned int tsan_switch_flags = 0;
#endif
}  // namespace

namespace ctx = boost::context::detail;

namespace cusim::detail {

// Passed through the switch so the resumed side can record where the
// suspended side stopped, and a starting fiber can find itself.
struct execution_context::handoff {
  execution_context* from;
  execution_context* to;
};

#if defined(CUSIM_OWN_STACK_SWITCH) && defined(CUSIM_ASAN)
namespace {
// The context leaving, for the side a switch resumes (the own switch stores
// the stack pointer itself and passes nothing): ASan learns its stack.
thread_local execution_context* switching_from = nullptr;
}  // namespace
#endif

execution_context::~execution_context() {
#ifdef CUSIM_RACE_CHECK
  if (own_ignores_) {
    // TSan reports a fiber destroyed while it ignores accesses: end that first.
    void* current = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(own_tsan_fiber_, __tsan_switch_to_fiber_no_sync);
    __tsan_ignore_thread_end();
    __tsan_switch_to_fiber(current, __tsan_switch_to_fiber_no_sync);
  }
  if (thread_tsan_fiber_ != nullptr && tsan_fiber_ == thread_tsan_fiber_) tsan_fiber_ = own_tsan_fiber_;
  if (thread_tsan_fiber_ != nullptr) __tsan_destroy_fiber(thread_tsan_fiber_);
#endif
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
#ifdef CUSIM_OWN_STACK_SWITCH
  suspended_ = cusim_prepare_stack(static_cast<char*>(stack_bottom) + stack_size, &start, this);
#else
  suspended_ = ctx::make_fcontext(static_cast<char*>(stack_bottom) + stack_size, stack_size, &trampoline);
#endif
#ifdef CUSIM_ASAN
  // Frames abandoned by an earlier use of this stack may have left poison.
  __asan_unpoison_memory_region(stack_bottom, stack_size);
#endif
#ifdef CUSIM_TSAN
  if (tsan_fiber_ == nullptr) tsan_fiber_ = __tsan_create_fiber(0);
#endif
#ifdef CUSIM_RACE_CHECK
  // A thread abandoned (assert, a stopped grid) leaves its identity behind.
  if (thread_tsan_fiber_ != nullptr) {
    tsan_fiber_ = own_tsan_fiber_;
    __tsan_destroy_fiber(thread_tsan_fiber_);
    thread_tsan_fiber_ = nullptr;
  }
#endif
}

void execution_context::switch_to(execution_context& to) {
#ifdef CUSIM_ASAN
  __sanitizer_start_switch_fiber(&asan_fake_stack_, to.stack_bottom_, to.stack_size_);
#endif
#ifdef CUSIM_TSAN
  if (tsan_fiber_ == nullptr) tsan_fiber_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(to.tsan_fiber_, tsan_switch_flags);
#endif
#ifdef CUSIM_OWN_STACK_SWITCH
#ifdef CUSIM_ASAN
  switching_from = this;
#endif
  cusim_switch_stacks(&suspended_, to.suspended_);
#ifdef CUSIM_ASAN
  arrived(switching_from);
#endif
#else
  handoff h{this, &to};
  const ctx::transfer_t transfer = ctx::jump_fcontext(to.suspended_, &h);
  auto* arrival = static_cast<handoff*>(transfer.data);
  arrival->from->suspended_ = transfer.fctx;
  arrived(arrival->from);
#endif
}

void execution_context::begin_race_identity([[maybe_unused]] const char* name) {
#ifdef CUSIM_RACE_CHECK
  thread_tsan_fiber_ = __tsan_create_fiber(0);
  __tsan_set_fiber_name(thread_tsan_fiber_, name);
#endif
}

void execution_context::enter_race_identity() {
#ifdef CUSIM_RACE_CHECK
  tsan_fiber_ = thread_tsan_fiber_;
  __tsan_switch_to_fiber(tsan_fiber_, __tsan_switch_to_fiber_no_sync);
#endif
}

void execution_context::leave_race_identity() {
#ifdef CUSIM_RACE_CHECK
  tsan_fiber_ = own_tsan_fiber_;
  __tsan_switch_to_fiber(tsan_fiber_, __tsan_switch_to_fiber_no_sync);
#endif
}

void execution_context::end_race_identity() {
#ifdef CUSIM_RACE_CHECK
  if (in_race_identity()) leave_race_identity();
  __tsan_destroy_fiber(thread_tsan_fiber_);
  thread_tsan_fiber_ = nullptr;
#endif
}

void execution_context::arrived([[maybe_unused]] execution_context* from) {
#ifdef CUSIM_ASAN
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &old_bottom, &old_size);
  if (from->stack_bottom_ == nullptr) {
    // Learn the OS thread's own stack the first time we leave it.
    from->stack_bottom_ = const_cast<void*>(old_bottom);
    from->stack_size_ = old_size;
  }
#endif
}

#ifdef CUSIM_OWN_STACK_SWITCH
void execution_context::start(void* self) {
  auto* context = static_cast<execution_context*>(self);
#ifdef CUSIM_ASAN
  context->arrived(switching_from);
#endif
  context->run_entry();
}
#else
void execution_context::trampoline(ctx::transfer_t transfer) {
  auto* h = static_cast<handoff*>(transfer.data);
  h->from->suspended_ = transfer.fctx;
  h->to->arrived(h->from);
  h->to->run_entry();
}
#endif

void execution_context::run_entry() {
  execution_context* self = this;
#ifdef CUSIM_RACE_CHECK
  // The fiber's own identity runs only cusim's code: TSan ignores it.
  if (!self->own_ignores_) {
    self->own_tsan_fiber_ = self->tsan_fiber_;
    __tsan_ignore_thread_begin();
    self->own_ignores_ = true;
  }
#endif
  self->entry_(self->arg_);
  __builtin_unreachable();  // entry functions never return
}

}  // namespace cusim::detail
