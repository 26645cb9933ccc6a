#include "fiber/stack.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "platform/memory.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

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

namespace {

// Guarded stacks alive in the process. Each costs two mappings; they may
// take half of the process's limit, leaving the rest to the program, its
// allocator and its libraries. CUSIM_GUARDED_STACKS sets the budget (tests
// make it small to exercise the other kind).
std::atomic<std::size_t> guarded_alive{0};

std::size_t guarded_budget() {
  static const std::size_t budget = [] {
    const std::int64_t from_env = env_positive("CUSIM_GUARDED_STACKS", 0);
    if (from_env > 0) return static_cast<std::size_t>(from_env);
    const std::size_t limit = platform::mapping_limit();
    return limit == 0 ? SIZE_MAX : limit / 4;
  }();
  return budget;
}

bool take_guarded_budget() {
  if (guarded_alive.fetch_add(1, std::memory_order_relaxed) < guarded_budget()) return true;
  guarded_alive.fetch_sub(1, std::memory_order_relaxed);
  return false;
}

// A reservation holds this much address space (committed only as touched).
constexpr std::size_t reservation_bytes = 64 << 20;

}  // namespace

stack_reservations::~stack_reservations() {
  for (const reservation& r : reservations_) platform::release_memory(r.memory, r.bytes);
}

void* stack_reservations::take(std::size_t bytes, const void*& reservation_begin) {
  if (auto spare = spares_.find(bytes); spare != spares_.end() && !spare->second.empty()) {
    const spare_slot slot = spare->second.back();
    spare->second.pop_back();
    // The last stack's pages, and any overflow into its gap, are forgotten.
    platform::discard_memory(slot.slot, bytes);
    reservation_begin = slot.reservation_begin;
    return slot.slot;
  }
  if (reservations_.empty() || reservations_.back().bytes - reservations_.back().used < bytes) {
    // A guard page at the beginning: frames that overflow a stack run on
    // through those below it in the reservation, and fault there, not in
    // whatever memory lies below.
    const std::size_t page = platform::page_size();
    const std::size_t size = page + (bytes > reservation_bytes ? bytes : reservation_bytes / bytes * bytes);
    void* memory = platform::reserve_memory(size);
    if (memory == nullptr) return nullptr;
    platform::keep_small_pages(memory, size);
    platform::make_guard(memory, page);
    reservations_.push_back({memory, size, page});
  }
  reservation& r = reservations_.back();
  reservation_begin = r.memory;
  void* slot = static_cast<char*>(r.memory) + r.used;
  r.used += bytes;
  return slot;
}

// Kept as it is: fibers are destroyed only when their worker goes or their
// stack size changes, and a slot is cleared when it is taken again.
void stack_reservations::give_back(void* slot, std::size_t bytes, const void* reservation_begin) {
  spares_[bytes].push_back({slot, reservation_begin});
}

void fiber_stack::forget_overflow() {
  if (!guarded()) platform::discard_memory(mapping_, gap_bytes);
}

fiber_stack::fiber_stack(std::size_t usable_bytes, stack_reservations& reservations) {
  const std::size_t page = platform::page_size();
  usable_size_ = (usable_bytes + page - 1) / page * page;
  if (take_guarded_budget()) {
    mapping_size_ = usable_size_ + page;
    mapping_ = platform::reserve_memory(mapping_size_);
    if (mapping_ == nullptr) {
      guarded_alive.fetch_sub(1, std::memory_order_relaxed);
      fatal("cannot reserve a {} KiB fiber stack: {}", mapping_size_ / 1024, std::strerror(errno));
    }
    // Stacks grow down: the guard page sits below the usable part. (The
    // generic platform has none: an overflow there goes unnoticed.)
    platform::make_guard(mapping_, page);
    usable_ = static_cast<char*>(mapping_) + page;
    lowest_reach_ = mapping_;
  } else {
    mapping_size_ = gap_bytes + usable_size_;
    mapping_ = reservations.take(mapping_size_, lowest_reach_);
    if (mapping_ == nullptr) {
      fatal("cannot reserve address space for more fiber stacks of {} KiB: {}", usable_size_ / 1024,
            std::strerror(errno));
    }
    reservations_ = &reservations;
    usable_ = static_cast<char*>(mapping_) + gap_bytes;
  }
  valgrind_id_ = CUSIM_STACK_REGISTER(usable_, static_cast<char*>(usable_) + usable_size_);
}

std::size_t fiber_stack::used_bytes() const {
  const std::size_t page = platform::page_size();
  const std::size_t pages = usable_size_ / page;
  return (pages - platform::lowest_committed_page(usable_, pages)) * page;
}

bool fiber_stack::overflowed() const {
  if (guarded()) return false;
  const std::size_t pages = gap_bytes / platform::page_size();
  return platform::lowest_committed_page(mapping_, pages) < pages;
}

fiber_stack::~fiber_stack() {
  if (mapping_ == nullptr) return;
  CUSIM_STACK_DEREGISTER(valgrind_id_);
  if (guarded()) {
    platform::release_memory(mapping_, mapping_size_);
    guarded_alive.fetch_sub(1, std::memory_order_relaxed);
  } else {
    reservations_->give_back(mapping_, mapping_size_, lowest_reach_);
  }
}

}  // namespace cusim::detail
