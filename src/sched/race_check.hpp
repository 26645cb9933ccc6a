// Race checking (cusim-cc --check=race): the program is built with
// ThreadSanitizer and linked with a runtime built with CUSIM_RACE_CHECK
// (itself uninstrumented, so its own bookkeeping is invisible to TSan). Each
// CUDA thread is a TSan fiber of its own, named by its coordinates; fiber
// switches carry no ordering, and CUDA's synchronisation is told to TSan as
// happens-before through tokens: a thread arriving at a barrier or warp
// collective releases the occasion's token, and acquires it when it leaves,
// so accesses the barrier orders are not reported and the ones it does not
// order are, with both threads' coordinates and source lines. Kernel start
// and completion, child launches and waits for children are tokens too;
// atomics order through their own acquire-release semantics.
//
// TSan sees only a CUDA thread's own identity: its kernel code, and the
// arrivals and departures of its waits. cusim's bookkeeping runs under the
// fiber's or the OS thread's own identity, whose accesses (allocations
// included) TSan ignores: runtime_scope switches to it.
//
// Without CUSIM_RACE_CHECK every function here is an empty inline.
#pragma once
// Sources that include this header are compiled once per checking runtime;
// the others once for all (CUSIM_CHECKED_SOURCES, src/CMakeLists.txt).
#ifdef CUSIM_CHECK_INDEPENDENT
#error "this source includes a header that differs in the checking runtimes: list it in CUSIM_CHECKED_SOURCES (src/CMakeLists.txt)"
#endif

namespace cusim::detail {

class execution_context;
class grid_job;
struct thread_context;

namespace race {

#ifdef CUSIM_RACE_CHECK
inline constexpr bool enabled = true;
// A token no other occasion uses (for long: tokens come round after a million).
const void* fresh_token();
void release(const void* token);
void acquire(const void* token);
// The CUDA thread `t` gets (gives up) an identity of its own, on the fiber
// whose context is `context`; enter_user and leave_user switch to it and back.
void thread_begins(execution_context& context, const thread_context& t);
void thread_ends(execution_context& context);
void enter_user(execution_context& context);
void leave_user(execution_context& context);
// Whether the check follows the threads of the grid's block `linear_block`
// (sched/race_sample.hpp; CUSIM_RACE_THREADS): those of the others run
// under their fiber's own identity, whose accesses TSan ignores, between
// unfollowed_begins and unfollowed_ends.
bool follows_block(const grid_job& grid, unsigned long long linear_block);
// In between, the running fiber's own identity takes no part in
// synchronisation either: an unfollowed thread neither orders nor is
// ordered, and carries no order from one followed thread to another.
void unfollowed_begins();
void unfollowed_ends();
// The calling OS thread runs only cusim's code while this lives: TSan
// ignores its accesses.
class runtime_only_section {
 public:
  runtime_only_section();
  ~runtime_only_section();
  runtime_only_section(const runtime_only_section&) = delete;
  runtime_only_section& operator=(const runtime_only_section&) = delete;
};
// cusim's bookkeeping within a wait or a device-side call, under the fiber's own identity.
class runtime_scope {
 public:
  runtime_scope();
  ~runtime_scope();
  runtime_scope(const runtime_scope&) = delete;
  runtime_scope& operator=(const runtime_scope&) = delete;

 private:
  execution_context* switched_ = nullptr;
};
#else
inline constexpr bool enabled = false;
inline const void* fresh_token() { return nullptr; }
inline void release(const void*) {}
inline void acquire(const void*) {}
inline void thread_begins(execution_context&, const thread_context&) {}
inline void thread_ends(execution_context&) {}
inline void enter_user(execution_context&) {}
inline void leave_user(execution_context&) {}
inline bool follows_block(const grid_job&, unsigned long long) { return true; }
inline void unfollowed_begins() {}
inline void unfollowed_ends() {}
class runtime_only_section {
 public:
  runtime_only_section() {}
};
class runtime_scope {
 public:
  runtime_scope() {}  // user-provided: no unused-variable warning where it is declared
};
#endif

}  // namespace race
}  // namespace cusim::detail
