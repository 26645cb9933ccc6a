#include "fiber/stack.hpp"

#include <cerrno>
#include <cstring>

#include "platform/memory.hpp"
#include "support/diagnostics.hpp"

// Valgrind, told where each fiber stack is, follows the switches between them
// instead of taking every frame on one for a wild access (a handful of
// instructions when not under Valgrind, and only when a stack is made).
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CUSIM_STACK_REGISTER(begin, end) VALGRIND_STACK_REGISTER(begin, end)
#define CUSIM_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#else
#define CUSIM_STACK_REGISTER(begin, end) 0u
#define CUSIM_STACK_DEREGISTER(id) static_cast<void>(id)
#endif

namespace cusim::detail {

fiber_stack::fiber_stack(std::size_t usable_bytes) {
  const std::size_t page = platform::page_size();
  usable_size_ = (usable_bytes + page - 1) / page * page;
  mapping_size_ = usable_size_ + page;
  mapping_ = platform::reserve_memory(mapping_size_);
  if (mapping_ == nullptr) {
    fatal("cannot reserve a {} KiB fiber stack: {}", mapping_size_ / 1024, std::strerror(errno));
  }
  // Stacks grow down: the guard page sits below the usable part. (The
  // generic platform has none: an overflow there goes unnoticed.)
  platform::make_guard(mapping_, page);
  usable_ = static_cast<char*>(mapping_) + page;
  valgrind_id_ = CUSIM_STACK_REGISTER(usable_, static_cast<char*>(usable_) + usable_size_);
}

std::size_t fiber_stack::used_bytes() const {
  const std::size_t page = platform::page_size();
  const std::size_t pages = usable_size_ / page;
  return (pages - platform::lowest_committed_page(usable_, pages)) * page;
}

fiber_stack::~fiber_stack() {
  if (mapping_ == nullptr) return;
  CUSIM_STACK_DEREGISTER(valgrind_id_);
  platform::release_memory(mapping_, mapping_size_);
}

}  // namespace cusim::detail
