// A point of execution that can be suspended and resumed: a fiber's, or the
// OS thread's own. Wraps Boost.Context's fcontext (the raw switch, no
// allocation) and announces every switch to ASan and TSan.
#pragma once
#include <boost/context/detail/fcontext.hpp>
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

 private:
  struct handoff;
  static void trampoline(boost::context::detail::transfer_t transfer);
  void arrived(boost::context::detail::transfer_t transfer);

  boost::context::detail::fcontext_t suspended_ = nullptr;
  void (*entry_)(void*) = nullptr;
  void* arg_ = nullptr;
  // The stack, for the sanitizers' fiber APIs (null for an OS thread's own).
  void* stack_bottom_ = nullptr;
  std::size_t stack_size_ = 0;
  void* asan_fake_stack_ = nullptr;
  void* tsan_fiber_ = nullptr;
  bool is_fiber_ = false;  // prepared on a stack of ours, not an OS thread's own
};

}  // namespace cusim::detail
