#include "fiber/fiber.hpp"

#include "sched/worker.hpp"

namespace cusim::detail {

fiber::fiber(worker& owner, std::size_t stack_bytes) : owner_(owner), stack_(stack_bytes) { reset(); }

void fiber::reset() {
  thread = thread_context{};
  thread.self = this;
  next = nullptr;
  context.prepare(stack_.bottom(), stack_.size(), &fiber::entry, this);
}

void fiber::entry(void* self) {
  auto* f = static_cast<fiber*>(self);
  f->owner_.fiber_loop(*f);
}

}  // namespace cusim::detail
