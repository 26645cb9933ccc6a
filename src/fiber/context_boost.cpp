// execution_context's raw switch with Boost.Context's fcontext: everywhere
// but x86-64 Linux, and with -DCUSIM_PLATFORM=generic. CMake builds this
// file or context_own_switch.cpp.
#include <boost/context/detail/fcontext.hpp>

#include "fiber/context.hpp"

namespace ctx = boost::context::detail;

namespace cusim::detail {

// Passed through the switch so the resumed side can record where the
// suspended side stopped, and a starting context can find itself.
struct execution_context::handoff {
  execution_context* from;
  execution_context* to;
};

struct context_backend {
  static void trampoline(ctx::transfer_t transfer) {
    auto* h = static_cast<execution_context::handoff*>(transfer.data);
    h->from->suspended_ = transfer.fctx;
    h->to->arrived(h->from);
    h->to->run_entry();
  }
};

void execution_context::prepare_switch(void* stack_top, std::size_t stack_size) {
  suspended_ = ctx::make_fcontext(stack_top, stack_size, &context_backend::trampoline);
}

void execution_context::raw_switch_to(execution_context& to) {
  handoff h{this, &to};
  const ctx::transfer_t transfer = ctx::jump_fcontext(to.suspended_, &h);
  auto* arrival = static_cast<handoff*>(transfer.data);
  arrival->from->suspended_ = transfer.fctx;
  arrived(arrival->from);
}

}  // namespace cusim::detail
