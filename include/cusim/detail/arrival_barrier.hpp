// The split arrive/wait barrier behind libcu++'s cuda::barrier and
// cuda::pipeline (include/cuda/cuda/barrier, pipeline): a count of arrivals
// the current phase still expects, and the phase, a number that grows by
// one each time the count reaches zero. A thread waits for a phase to end
// by stepping aside (a spin point) until the number moves on: the threads
// it waits for are its own block's, which run on the same worker, or other
// blocks', which run beside it.
//
// Like a GPU's mbarrier it is set up by init, never by a constructor: a
// `__shared__ cuda::barrier` is storage that one thread initialises.
#pragma once
#include <cstdint>

#include <cusim/detail/atomic_cell.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/progress.hpp>

namespace cusim::detail {

class arrival_barrier {
 public:
  arrival_barrier() = default;
  arrival_barrier(const arrival_barrier&) = delete;
  arrival_barrier& operator=(const arrival_barrier&) = delete;

  void init(std::uint32_t expected) {
    expected_ = expected;
    atomic_cell<std::uint64_t>(state_).exchange(expected, __ATOMIC_RELEASE);  // phase 0
  }

  // Counts `count` arrivals; returns the phase they belong to. The arrival
  // that ends the phase runs `complete` before the next phase starts, so
  // that every waiter sees what it did.
  template <class Completion>
  std::uint32_t arrive(std::uint32_t count, Completion&& complete, const char* what, const char* file,
                       unsigned int line) {
    const atomic_cell<std::uint64_t> state(state_);
    std::uint64_t old = state.load(__ATOMIC_ACQUIRE);
    for (;;) {
      const std::uint32_t pending = static_cast<std::uint32_t>(old);
      if (pending == 0) {
        // Another thread's arrival ended the phase and runs the completion
        // (only threads of other blocks can be here at once).
        spin_point();
        old = state.load(__ATOMIC_ACQUIRE);
        continue;
      }
      if (count > pending) too_many_arrivals(what, count, pending, file, line);
      if (state.compare_exchange_weak(old, old - count, __ATOMIC_ACQ_REL)) break;
    }
    const std::uint32_t phase = static_cast<std::uint32_t>(old >> 32);
    if (static_cast<std::uint32_t>(old) == count) {
      complete();
      const std::uint32_t next_expected = atomic_cell<std::uint32_t>(expected_).load(__ATOMIC_ACQUIRE);
      state.exchange((static_cast<std::uint64_t>(phase + 1) << 32) | next_expected, __ATOMIC_RELEASE);
    }
    return phase;
  }

  // arrive_and_drop: one fewer arrival expected from the next phase on.
  void drop() { atomic_cell<std::uint32_t>(expected_).fetch_sub(1, __ATOMIC_ACQ_REL); }

  std::uint32_t phase() const { return static_cast<std::uint32_t>(atomic_cell<std::uint64_t>(state_).load(__ATOMIC_ACQUIRE) >> 32); }
  std::uint32_t expected() const { return atomic_cell<std::uint32_t>(expected_).load(__ATOMIC_ACQUIRE); }
  // Whether phase `p` has ended (phase numbers wrap; the distance decides).
  bool ended(std::uint32_t p) const { return static_cast<std::int32_t>(phase() - p) > 0; }

  // Waits until phase `p` has ended.
  void wait(std::uint32_t p) const {
    while (!ended(p)) spin_point();
  }

 private:
  [[noreturn]] static void too_many_arrivals(const char* what, std::uint32_t count, std::uint32_t pending,
                                             const char* file, unsigned int line);

  mutable std::uint64_t state_;     // (mutable: loads go through atomic_cell) phase << 32 | arrivals the phase still expects
  mutable std::uint32_t expected_;  // what each new phase expects
};

// What a barrier without a completion function runs when a phase ends.
struct no_completion {
  void operator()() const noexcept {}
};

}  // namespace cusim::detail
