// Fiber stacks: mmap'd regions with a PROT_NONE guard page below them, so a
// CUDA thread that overflows its stack faults instead of corrupting another
// thread's. Pages are committed by the OS only when touched.
#pragma once
#include <cstddef>

namespace cusim::detail {

class fiber_stack {
 public:
  // Reserves `usable_bytes` (rounded up to pages) plus one guard page.
  explicit fiber_stack(std::size_t usable_bytes);
  ~fiber_stack();
  fiber_stack(const fiber_stack&) = delete;
  fiber_stack& operator=(const fiber_stack&) = delete;

  void* bottom() const { return usable_; }  // lowest usable address
  void* top() const { return static_cast<char*>(usable_) + usable_size_; }
  std::size_t size() const { return usable_size_; }
  // How much of the stack has ever been used, to the page: from the top to
  // the lowest page the OS has committed (pages stay once touched).
  std::size_t used_bytes() const;
  // Whether `p`, a stack pointer or an address accessed, is below the stack
  // by less than a frame could plausibly reach: in the guard page, or past
  // it when one frame's locals skipped it (cusim-cc builds kernels with
  // -fstack-clash-protection, which probes every page; other code may not).
  bool overflowed_to(const void* p) const {
    return p < usable_ && static_cast<const char*>(usable_) - static_cast<const char*>(p) <= overflow_reach;
  }
  static constexpr std::ptrdiff_t overflow_reach = 1 << 20;

 private:
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  void* usable_ = nullptr;
  std::size_t usable_size_ = 0;
  unsigned int valgrind_id_ = 0;  // the stack as Valgrind knows it
};

}  // namespace cusim::detail
