// A fiber: a stack and an execution context that runs CUDA threads. A fiber
// is a "loop fiber": it runs the unstarted threads of its block one after
// another as plain calls, and only when one of them must wait does the block
// need another fiber to carry on with the rest (see docs/design.md).
#pragma once
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/warp_api.hpp>

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

  execution_context context;
  thread_context thread{};          // the CUDA thread this fiber runs now
  fiber* next = nullptr;            // intrusive link (ready queue, wait list, idle list)
  barrier_outcome barrier_result{};  // handed over by whoever released the barrier it waited at
  warp_result warp_outcome{};        // handed over by whoever completed the warp collective it waited at
  std::uint64_t cluster_phase = 0;   // the cluster barrier phase it waits for, or last arrived at

 private:
  static void entry(void* self);
  worker& owner_;
  fiber_stack stack_;
};

// An intrusive FIFO of fibers: waking or queueing a fiber allocates nothing.
class fiber_queue {
 public:
  bool empty() const { return head_ == nullptr; }
  void push_back(fiber* f) {
    f->next = nullptr;
    if (tail_ != nullptr) tail_->next = f; else head_ = f;
    tail_ = f;
  }
  void push_front(fiber* f) {
    f->next = head_;
    head_ = f;
    if (tail_ == nullptr) tail_ = f;
  }
  fiber* pop_front() {
    fiber* f = head_;
    if (f != nullptr) {
      head_ = f->next;
      if (head_ == nullptr) tail_ = nullptr;
      f->next = nullptr;
    }
    return f;
  }
  // Moves every fiber of `other` to the back of this queue, keeping their order.
  void append(fiber_queue& other) {
    if (other.empty()) return;
    if (tail_ != nullptr) tail_->next = other.head_; else head_ = other.head_;
    tail_ = other.tail_;
    other.head_ = other.tail_ = nullptr;
  }

 private:
  fiber* head_ = nullptr;
  fiber* tail_ = nullptr;
};

}  // namespace cusim::detail
