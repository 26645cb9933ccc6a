// Lockstep warps (cusim-cc --warp-mode=lockstep): the program is compiled
// with ThreadSanitizer's instrumentation, which calls a hook before every
// memory access and atomic, and linked with these hooks instead of TSan's
// runtime. In a kernel each hook is a spin point: the thread steps aside and
// the block's other runnable threads each make their next access before it
// makes its own. Threads of a block thus advance one memory access at a time
// together, as the lanes of a converged pre-Volta warp advance one
// instruction at a time; code that counts on that (a warp-synchronous
// reduction without __syncwarp) gives the answer it gave on such a GPU.
// Divergent paths interleave instead of running one after the other, so the
// deadlock of a spin lock between the lanes of one pre-Volta warp is not
// reproduced. On the host the hooks do nothing but the access.
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/progress.hpp>

namespace {

inline void step() {
  if (cusim::detail::current_thread != nullptr) cusim::detail::spin_point();
}

// Atomics as the program asked for them, always sequentially consistent
// (what a memory order weaker than that allows includes this).
constexpr int order = __ATOMIC_SEQ_CST;

}  // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) { step(); }
void __tsan_vptr_read(void**) { step(); }
void __tsan_read_range(void*, unsigned long) { step(); }
void __tsan_write_range(void*, unsigned long) { step(); }

#define CUSIM_LOCKSTEP_ACCESS_(size)                    \
  void __tsan_read##size(void*) { step(); }             \
  void __tsan_write##size(void*) { step(); }            \
  void __tsan_unaligned_read##size(void*) { step(); }   \
  void __tsan_unaligned_write##size(void*) { step(); }  \
  void __tsan_volatile_read##size(void*) { step(); }    \
  void __tsan_volatile_write##size(void*) { step(); }
CUSIM_LOCKSTEP_ACCESS_(1)
CUSIM_LOCKSTEP_ACCESS_(2)
CUSIM_LOCKSTEP_ACCESS_(4)
CUSIM_LOCKSTEP_ACCESS_(8)
CUSIM_LOCKSTEP_ACCESS_(16)
#undef CUSIM_LOCKSTEP_ACCESS_

#define CUSIM_LOCKSTEP_FETCH_(bits, type, op)                                  \
  type __tsan_atomic##bits##_fetch_##op(volatile type* a, type v, int) {       \
    step();                                                                    \
    return __atomic_fetch_##op(a, v, order);                                   \
  }
#define CUSIM_LOCKSTEP_ATOMICS_(bits, type)                                                          \
  type __tsan_atomic##bits##_load(const volatile type* a, int) {                                     \
    step();                                                                                          \
    return __atomic_load_n(a, order);                                                                \
  }                                                                                                  \
  void __tsan_atomic##bits##_store(volatile type* a, type v, int) {                                  \
    step();                                                                                          \
    __atomic_store_n(a, v, order);                                                                   \
  }                                                                                                  \
  type __tsan_atomic##bits##_exchange(volatile type* a, type v, int) {                               \
    step();                                                                                          \
    return __atomic_exchange_n(a, v, order);                                                         \
  }                                                                                                  \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile type* a, type* c, type v, int, int) {   \
    step();                                                                                          \
    return __atomic_compare_exchange_n(a, c, v, false, order, order);                                \
  }                                                                                                  \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile type* a, type* c, type v, int, int) {     \
    step();                                                                                          \
    return __atomic_compare_exchange_n(a, c, v, true, order, order);                                 \
  }                                                                                                  \
  type __tsan_atomic##bits##_compare_exchange_val(volatile type* a, type c, type v, int, int) {      \
    step();                                                                                          \
    __atomic_compare_exchange_n(a, &c, v, false, order, order);                                      \
    return c;                                                                                        \
  }                                                                                                  \
  CUSIM_LOCKSTEP_FETCH_(bits, type, add)                                                             \
  CUSIM_LOCKSTEP_FETCH_(bits, type, sub)                                                             \
  CUSIM_LOCKSTEP_FETCH_(bits, type, and)                                                             \
  CUSIM_LOCKSTEP_FETCH_(bits, type, or)                                                              \
  CUSIM_LOCKSTEP_FETCH_(bits, type, xor)                                                             \
  CUSIM_LOCKSTEP_FETCH_(bits, type, nand)
CUSIM_LOCKSTEP_ATOMICS_(8, char)
CUSIM_LOCKSTEP_ATOMICS_(16, short)
CUSIM_LOCKSTEP_ATOMICS_(32, int)
CUSIM_LOCKSTEP_ATOMICS_(64, long)
#undef CUSIM_LOCKSTEP_ATOMICS_
#undef CUSIM_LOCKSTEP_FETCH_

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(order); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(order); }

}  // extern "C"
