// Fiber stacks. Pages are committed by the OS only when touched.
//
// A stack normally has a mapping of its own with a PROT_NONE guard page
// below it, so a CUDA thread that overflows its stack faults at once
// instead of corrupting another thread's. The guard splits the mapping in
// two, and a process may hold only so many mappings (vm.max_map_count on
// Linux, 65530 by default): a cooperative grid that fills an H100 has 270 000
// threads parked at once, each on its own stack. So past a budget of
// guarded stacks (half of the limit, two mappings each, shared by the
// process) stacks are carved from large reservations (stack_reservations,
// one per worker), each above a gap of untouched pages instead of a guard
// page. An overflow there does not fault: it is found when the thread
// switches away with its stack pointer below its stack, or, when the frames
// that overflowed have returned, by the gap's pages having been committed
// once the fiber has no thread left (fiber_stack::overflowed), or when the
// frames reach the guard page at the beginning of the reservation. Best
// effort: frames deeper than the gap that return before their thread waits
// may overwrite the stack below first (docs/design.md, Stacks).
#pragma once
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace cusim::detail {

// Large reservations that stacks beyond the guarded budget are carved from,
// and the slots given back by stacks that were destroyed. Not thread-safe:
// one per worker, whose fibers alone use it, so that an overflow of one
// stack reaches only the same worker's (all parked while it runs).
class stack_reservations {
 public:
  stack_reservations() = default;
  ~stack_reservations();
  stack_reservations(const stack_reservations&) = delete;
  stack_reservations& operator=(const stack_reservations&) = delete;

  // A slot of `bytes` (a multiple of the page size), from a slot given back
  // or a reservation, and where that reservation begins; nullptr when no
  // memory can be reserved.
  void* take(std::size_t bytes, const void*& reservation_begin);
  // The slot is kept for the next stack of its size.
  void give_back(void* slot, std::size_t bytes, const void* reservation_begin);

 private:
  struct reservation {
    void* memory;
    std::size_t bytes;
    std::size_t used;
  };
  struct spare_slot {
    void* slot;
    const void* reservation_begin;
  };
  std::vector<reservation> reservations_;
  std::unordered_map<std::size_t, std::vector<spare_slot>> spares_;  // by size
};

class fiber_stack {
 public:
  // Reserves `usable_bytes` (rounded up to pages): with a guard page of its
  // own while the process's budget of those lasts, else from `reservations`.
  fiber_stack(std::size_t usable_bytes, stack_reservations& reservations);
  ~fiber_stack();
  fiber_stack(const fiber_stack&) = delete;
  fiber_stack& operator=(const fiber_stack&) = delete;

  void* bottom() const { return usable_; }  // lowest usable address
  void* top() const { return static_cast<char*>(usable_) + usable_size_; }
  std::size_t size() const { return usable_size_; }
  // Whether a guard page sits below it (an overflow faults at once).
  bool guarded() const { return reservations_ == nullptr; }
  // How much of the stack has ever been used, to the page: from the top to
  // the lowest page the OS has committed (pages stay once touched).
  std::size_t used_bytes() const;
  // Whether `p`, a stack pointer or an address accessed, is below the stack
  // by less than a frame could plausibly reach: in the guard page, or past
  // it when one frame's locals skipped it (cusim-cc builds kernels with
  // -fstack-clash-protection, which probes every page; other code may not).
  // Below an unguarded stack, frames run on through the stacks carved
  // below it in its reservation, and fault only past its beginning.
  bool overflowed_to(const void* p) const {
    return p < usable_ && static_cast<const char*>(lowest_reach_) - static_cast<const char*>(p) <= overflow_reach;
  }
  static constexpr std::ptrdiff_t overflow_reach = 1 << 20;
  // An unguarded stack's overflow that left no fault: whether frames have
  // reached below it, into the gap under it (a system call: checked when
  // its fiber has no thread left, not at every switch). Always false for a
  // guarded stack, whose overflow faults.
  bool overflowed() const;
  // Forgets an overflow overflowed() would find: for a fiber reset after its
  // grid was aborted, whose next grid is not to blame.
  void forget_overflow();
  // The gap of untouched pages below an unguarded stack.
  static constexpr std::size_t gap_bytes = 64 * 1024;

 private:
  void* mapping_ = nullptr;  // its own mapping, or its slot in a reservation
  std::size_t mapping_size_ = 0;
  void* usable_ = nullptr;
  std::size_t usable_size_ = 0;
  stack_reservations* reservations_ = nullptr;  // where its slot came from, if unguarded
  const void* lowest_reach_ = nullptr;  // its guard page, or the beginning of its reservation
  unsigned int valgrind_id_ = 0;  // the stack as Valgrind knows it
};

}  // namespace cusim::detail
