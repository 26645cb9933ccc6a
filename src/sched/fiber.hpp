// A fiber: a stack and an execution context that runs CUDA threads. A fiber
// is a "loop fiber": it runs the unstarted threads of its block one after
// another as plain calls, and only when one of them must wait does the block
// need another fiber to carry on with the rest (see docs/design.md).
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/thread_loop.hpp>
#include <cusim/detail/warp_api.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "fiber/context.hpp"
#include "fiber/stack.hpp"

namespace cusim::detail {

class worker;

class fiber {
 public:
  fiber(worker& owner, std::size_t stack_bytes);

  // Forgets whatever the fiber was running (frames are abandoned) and makes
  // it start afresh at the worker's fiber loop the next time it is resumed.
  void reset();
  // Whether `p` points into this fiber's stack: local memory of the CUDA
  // threads it runs.
  bool stack_holds(const void* p) const {
    return p >= stack_.bottom() && p < stack_.top();
  }
  const fiber_stack& stack() const { return stack_; }
  void forget_stack_overflow() { stack_.forget_overflow(); }
  // Race checking: the fiber runs CUDA threads one after another on one
  // stack, and one thread's locals must not be taken for another's. Each
  // thread's frames start in a window of the stack no thread used since
  // ThreadSanitizer last forgot it: returns how far below the caller's frame
  // that window begins. When the windows run out, fresh pages are mapped
  // over them all (which also clears TSan's record) and they start again.
  static constexpr std::size_t race_stack_window_bytes = 64 * 1024;
  static constexpr std::size_t race_stack_windows = 128;
  std::size_t fresh_stack_window();

  execution_context context;
  thread_context thread{};          // the CUDA thread this fiber runs now
  // Whether the grid of its block has been aborted (grid_job::abort_flag):
  // every wait asks, and the fiber is at hand where its block's grid's
  // root is three loads away.
  bool grid_aborted() const { return abort_flag->load(std::memory_order_relaxed); }
  const std::atomic<bool>* abort_flag = nullptr;  // set with thread.block
  fiber* next = nullptr;            // intrusive link (ready queue, wait list, idle list)
  // Whether it runs threads in a kernel's thread loop (thread_loop.hpp), and
  // the loop's first thread whose exit the block has not been told: beside the
  // fields every wait touches, not in the loop's frame on its stack.
  bool in_loop = false;
  bool loop_never_waits = false;  // the loop's thread_loop::threads_never_wait
  // !stack().guarded(), copied here beside the fields every switch reads:
  // hand_over tests it at each switch (stack.hpp says why).
  bool unguarded_stack = false;
  unsigned int loop_first_unrecorded = 0;
  // The loop's thread whose index its context holds (the loop keeps only
  // threadIdx): stored at its first wait, where the worker needs it.
  unsigned int loop_indexed_thread = 0;
  std::size_t block_slot = 0;       // its index in its block's list of fibers (block_state::fibers)
  warp_result warp_outcome{};        // handed over by whoever completed the warp collective it waited at
  std::uint64_t cluster_phase = 0;   // the cluster barrier phase it waits for, or last arrived at
  unsigned int race_window = 0;      // race checking: the stack window of its next thread
  std::size_t race_stack_offset = 0;  // and how far below fiber_loop's frame the running thread's begins
  std::uint64_t priority = 0;        // schedule pct: the highest runnable runs (sched/schedule.hpp)
  bool spinning = false;             // stepped aside at a spin point: runnable, not waiting (lockstep warps)
  const void* race_token = nullptr;  // race checking: the token of the occasion it waits at (sched/race_check.hpp)

 private:
  static void entry(void* self);
  worker& owner_;
  fiber_stack stack_;
  std::size_t stack_stagger_;  // bytes left unused at the top (cache sets; see fiber.cpp)
};

// An intrusive FIFO of fibers: waking or queueing a fiber allocates nothing.
class fiber_queue {
 public:
  bool empty() const { return head_ == nullptr; }
  std::size_t size() const { return size_; }
  void push_back(fiber* f) {
    f->next = nullptr;
    if (tail_ != nullptr) tail_->next = f; else head_ = f;
    tail_ = f;
    ++size_;
  }
  void push_front(fiber* f) {
    f->next = head_;
    head_ = f;
    if (tail_ == nullptr) tail_ = f;
    ++size_;
  }
  fiber* pop_front() {
    fiber* f = head_;
    if (f != nullptr) {
      head_ = f->next;
      if (head_ == nullptr) tail_ = nullptr;
      f->next = nullptr;
      --size_;
    }
    return f;
  }
  // Moves every fiber of `other` to the back of this queue, keeping their order.
  void append(fiber_queue& other) {
    if (other.empty()) return;
    if (tail_ != nullptr) tail_->next = other.head_; else head_ = other.head_;
    tail_ = other.tail_;
    size_ += other.size_;
    other.head_ = other.tail_ = nullptr;
    other.size_ = 0;
  }
  // Moves every fiber of `other` to the front of this queue, keeping their order.
  void prepend(fiber_queue& other) {
    if (other.empty()) return;
    other.tail_->next = head_;
    if (tail_ == nullptr) tail_ = other.tail_;
    head_ = other.head_;
    size_ += other.size_;
    other.head_ = other.tail_ = nullptr;
    other.size_ = 0;
  }
  // Removes `f`, which must be queued here, walking to it.
  void remove(fiber* f) {
    fiber* before = nullptr;
    for (fiber* at = head_; at != f; at = at->next) before = at;
    unlink(before, f);
  }
  // Removes the fiber at `index` (< size()), walking to it: for schedule
  // policies other than in-order, which are for debugging.
  fiber* take_at(std::size_t index) {
    if (index == 0) return pop_front();
    fiber* before = head_;
    for (std::size_t i = 1; i < index; ++i) before = before->next;
    fiber* f = before->next;
    unlink(before, f);
    return f;
  }
  // The index of the fiber of the highest priority (the first of equals).
  std::size_t index_of_highest_priority() const {
    std::size_t best = 0, i = 0;
    std::uint64_t highest = 0;
    for (const fiber* f = head_; f != nullptr; f = f->next, ++i) {
      if (i == 0 || f->priority > highest) {
        highest = f->priority;
        best = i;
      }
    }
    return best;
  }

 private:
  // Takes `f` out of the queue; `before` is the fiber ahead of it (nullptr: f is first).
  void unlink(fiber* before, fiber* f) {
    (before != nullptr ? before->next : head_) = f->next;
    if (tail_ == f) tail_ = before;
    f->next = nullptr;
    --size_;
  }
  fiber* head_ = nullptr;
  fiber* tail_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cusim::detail
