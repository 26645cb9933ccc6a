#include "sched/fiber.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "platform/memory.hpp"
#include "sched/worker.hpp"

namespace cusim::detail {

namespace {
// Where a fiber's frames start below the top of its stack. Stacks are
// page-aligned, and the L1 cache picks a line's set from the address bits
// below the page size: stacks whose tops are all page-aligned put every
// fiber's hottest frames in the same few sets, which evict each other at
// each switch. Successive fibers start one cache line lower, modulo a page.
std::size_t next_stack_stagger() {
  constexpr std::size_t line = 64, lines_per_page = 4096 / line;
  static std::atomic<unsigned int> fibers_made{0};
  return fibers_made.fetch_add(1, std::memory_order_relaxed) % lines_per_page * line;
}
}  // namespace

fiber::fiber(worker& owner, std::size_t stack_bytes)
    : owner_(owner), stack_(stack_bytes, owner.stack_reservations_for_fibers()), stack_stagger_(next_stack_stagger()) {
  unguarded_stack = !stack_.guarded();
  reset();
}

void fiber::reset() {
  // A fresh context, all but linear_tid copied: the watchdog may be reading
  // that (atomically, through worker_activity::running_thread) while an
  // aborted grid's fibers are reset, so it is stored atomically too.
  const thread_context fresh{};
  constexpr std::size_t id_at = offsetof(thread_context, linear_tid), id_end = id_at + sizeof fresh.linear_tid;
  std::memcpy(static_cast<void*>(&thread), &fresh, id_at);
  std::memcpy(reinterpret_cast<char*>(&thread) + id_end, reinterpret_cast<const char*>(&fresh) + id_end,
              sizeof fresh - id_end);
  set_linear_tid(thread, 0);
  thread.self = this;
  next = nullptr;
  spinning = false;
  in_loop = false;  // a loop it was parked in (an aborted grid's) is gone with its frames
  context.prepare(stack_.bottom(), stack_.size() - stack_stagger_, &fiber::entry, this);
}

void fiber::entry(void* self) {
  auto* f = static_cast<fiber*>(self);
  f->owner_.fiber_loop(*f);
}

std::size_t fiber::fresh_stack_window() {
  // The remap below works in whole pages: 4 KiB, or 64 KiB on some arm64
  // kernels, where a remap rounded to 4 KiB would reach this very frame.
  const std::uintptr_t page = platform::page_size();
  // The first window starts well below the caller's frame: its callees'
  // frames fit above (half the margin: see the remap below).
  const std::size_t margin = std::max<std::size_t>(32 * 1024, 4 * page);
  const auto bottom = reinterpret_cast<std::uintptr_t>(stack_.bottom());
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  const std::size_t usable = frame - margin > bottom ? frame - margin - bottom : 0;
  const std::size_t windows = usable / race_stack_window_bytes;
  if (windows < 2) return margin;  // a small stack (CUSIM_STACK_SIZE): no fresh windows
  if (race_window + 1 >= windows) {
    // Every window used: map fresh pages over all (TSan forgets them), start
    // again. Up to half the margin below this frame, above where window 0
    // begins: a thread's frames start below run_one_thread's frame, which
    // may sit a little above this one, and ending the remap at window 0's
    // top rounded down to a page left up to 4 KiB unrenewed where a thread's
    // first frames go (an intermittent false race report between two
    // threads' locals). The other half keeps the remap clear of this
    // function's callees (the mmap and ThreadSanitizer's interceptor).
    const std::uintptr_t top = (frame - margin / 2) & ~(page - 1);
    platform::renew_memory(stack_.bottom(), top - bottom);
    race_window = 0;
  }
  return margin + race_stack_window_bytes * race_window++;
}

}  // namespace cusim::detail
