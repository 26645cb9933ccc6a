// A point of execution that can be suspended and resumed: a fiber's, or the
// OS thread's own. The raw switch (no allocation) is one of two back ends,
// a file each, which CMake picks: context_own_switch.cpp (x86-64 Linux:
// stack_switch.hpp says why) and context_boost.cpp (Boost.Context's
// fcontext, everywhere else and with -DCUSIM_PLATFORM=generic).
// context.cpp holds the rest, and announces every switch to ASan and TSan
// (sanitizer_fibers.hpp).
#pragma once
#include <cstddef>

namespace cusim::detail {

class execution_context {
 public:
  execution_context() = default;
  ~execution_context();
  execution_context(const execution_context&) = delete;
  execution_context& operator=(const execution_context&) = delete;

  // Makes this context start `entry(arg)` on the given stack when it is first
  // switched to. `entry` must never return. Calling it again discards
  // whatever the context was doing (its frames are abandoned, not unwound).
  void prepare(void* stack_bottom, std::size_t stack_size, void (*entry)(void*), void* arg);

  // Suspends the running context, which must be `*this`, and resumes `to`.
  // Returns when some context switches back to this one.
  void switch_to(execution_context& to);
  // The same, inline where nothing else need be told of the switch
  // (fiber/inline_switch.hpp; for sources built once per checking runtime).
  friend void switch_inline(execution_context& from, execution_context& to);

  // Race checking (sched/race_check.hpp): the running fiber makes a TSan
  // identity for one CUDA thread, named `name`, switches to it and back,
  // and destroys it. Its own identity ignores accesses (cusim's bookkeeping).
  void begin_race_identity(const char* name);
  void end_race_identity();
  void enter_race_identity();
  void leave_race_identity();
  bool in_race_identity() const { return thread_tsan_fiber_ != nullptr && tsan_fiber_ == thread_tsan_fiber_; }

 private:
  // The back end's (its file defines it): a fresh context's first code
  // (which calls arrived, then run_entry), and what a switch passes.
  friend struct context_backend;
  struct handoff;
  // The back end: makes suspended_ start the context on the stack below
  // `stack_top`; and the switch itself, which returns on the resumed side
  // after calling arrived().
  void prepare_switch(void* stack_top, std::size_t stack_size);
  void raw_switch_to(execution_context& to);
  void* suspended_ = nullptr;  // where it stopped: a stack pointer, or Boost's fcontext_t (a pointer too)
  // After a switch, on the resumed side: `from` is the context that left.
  void arrived(execution_context* from);
  [[noreturn]] void run_entry();

  void (*entry_)(void*) = nullptr;
  void* arg_ = nullptr;
  // The stack, for the sanitizers' fiber APIs (null for an OS thread's own).
  void* stack_bottom_ = nullptr;
  std::size_t stack_size_ = 0;
  // The sanitizers' state: unused in other builds.
  [[maybe_unused]] void* asan_fake_stack_ = nullptr;
  [[maybe_unused]] void* tsan_fiber_ = nullptr;
  [[maybe_unused]] void* own_tsan_fiber_ = nullptr;     // race checking: the fiber's own identity
  [[maybe_unused]] void* thread_tsan_fiber_ = nullptr;  // and its CUDA thread's, while it has one
  [[maybe_unused]] bool own_ignores_ = false;
  bool is_fiber_ = false;  // prepared on a stack of ours, not an OS thread's own
};

}  // namespace cusim::detail
