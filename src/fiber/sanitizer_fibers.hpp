// What the fiber layer tells the sanitizers about stack switches: ASan
// (address-checked builds: support/address_check.hpp) learns which stack
// runs, TSan (ThreadSanitizer builds of cusim, and race checking, whose
// fibers are TSan fibers: sched/race_check.hpp) which fiber runs and what
// a switch orders. In other builds every function here is an empty inline,
// so execution_context's code reads the same in every build.
#pragma once
#include <cstddef>

#include "support/address_check.hpp"  // defines CUSIM_ASAN where addresses are checked

#if defined(CUSIM_SANITIZE_thread) || defined(CUSIM_RACE_CHECK)
#include <sanitizer/tsan_interface.h>
// Exported by TSan's runtime, not declared by GCC 12's header: the calling
// thread's (fiber's) accesses are ignored from then on.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#define CUSIM_TSAN 1
#endif

namespace cusim::detail::sanitizer_fibers {

#ifdef CUSIM_ASAN
inline constexpr bool asan = true;
inline void start_switch(void** fake_stack, const void* bottom, std::size_t size) {
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
}
inline void finish_switch(void* fake_stack, const void** old_bottom, std::size_t* old_size) {
  __sanitizer_finish_switch_fiber(fake_stack, old_bottom, old_size);
}
// Frames abandoned by an earlier use of a stack may have left poison.
inline void forget_stack(void* bottom, std::size_t size) { __asan_unpoison_memory_region(bottom, size); }
#else
inline constexpr bool asan = false;
inline void start_switch(void**, const void*, std::size_t) {}
inline void finish_switch(void*, const void**, std::size_t*) {}
inline void forget_stack(void*, std::size_t) {}
#endif

#ifdef CUSIM_TSAN
inline constexpr bool tsan = true;
inline void* current_fiber() { return __tsan_get_current_fiber(); }
inline void* create_fiber() { return __tsan_create_fiber(0); }
inline void destroy_fiber(void* fiber) { __tsan_destroy_fiber(fiber); }
inline void name_fiber(void* fiber, const char* name) { __tsan_set_fiber_name(fiber, name); }
// `synchronising`: whether the switch orders what the two fibers do.
inline void switch_to_fiber(void* fiber, bool synchronising) {
  __tsan_switch_to_fiber(fiber, synchronising ? 0 : __tsan_switch_to_fiber_no_sync);
}
inline void ignore_accesses_begin() { __tsan_ignore_thread_begin(); }
inline void ignore_accesses_end() { __tsan_ignore_thread_end(); }
#else
inline constexpr bool tsan = false;
inline void* current_fiber() { return nullptr; }
inline void* create_fiber() { return nullptr; }
inline void destroy_fiber(void*) {}
inline void name_fiber(void*, const char*) {}
inline void switch_to_fiber(void*, bool) {}
inline void ignore_accesses_begin() {}
inline void ignore_accesses_end() {}
#endif

// Race checking: a CUDA thread's accesses are checked under an identity of
// its own; a switch between fibers orders nothing (CUDA's synchronisation
// does, sched/race_check.hpp). Checking cusim itself, a switch orders the
// fibers of one worker as their OS thread's program order does.
#ifdef CUSIM_RACE_CHECK
inline constexpr bool race_identities = true;
#else
inline constexpr bool race_identities = false;
#endif
inline constexpr bool switches_synchronise = !race_identities;

}  // namespace cusim::detail::sanitizer_fibers
