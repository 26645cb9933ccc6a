// Only in the race-checking runtime: what a volatile access is to the race
// check. PTX treats ld.volatile and st.volatile as relaxed accesses at
// system scope, which do not race with each other: CUB's decoupled
// look-back, a flag polled through a volatile pointer, a warp reduction over
// volatile shared memory are correct CUDA. A volatile access still races
// with a plain one nothing orders it against.
//
// cusim-cc --check=race has gcc call these hooks for volatile accesses
// (--param=tsan-distinguish-volatile=1; gcc's ThreadSanitizer runtime has
// none of its own), and each tells ThreadSanitizer of a relaxed atomic access
// of the same bytes: a load, or for a write an atomic add of zero, which
// leaves the bytes as they are even while another worker writes them (the
// program's own store follows the hook). An access the compiler cannot
// prove aligned stays a plain one (ThreadSanitizer's atomics need aligned
// addresses). Weak: clang's runtime, linked
// whole, has its own (plain accesses), and cusim-cc leaves clang's volatile
// accesses plain.
#ifdef CUSIM_RACE_CHECK

namespace {
constexpr int relaxed = 0;  // __tsan_memory_order_relaxed
}  // namespace

extern "C" {
char __tsan_atomic8_load(const volatile char* a, int order);
short __tsan_atomic16_load(const volatile short* a, int order);
int __tsan_atomic32_load(const volatile int* a, int order);
long __tsan_atomic64_load(const volatile long* a, int order);
char __tsan_atomic8_fetch_add(volatile char* a, char v, int order);
short __tsan_atomic16_fetch_add(volatile short* a, short v, int order);
int __tsan_atomic32_fetch_add(volatile int* a, int v, int order);
long __tsan_atomic64_fetch_add(volatile long* a, long v, int order);
void __tsan_unaligned_read2(void* a);
void __tsan_unaligned_read4(void* a);
void __tsan_unaligned_read8(void* a);
void __tsan_unaligned_read16(void* a);
void __tsan_unaligned_write2(void* a);
void __tsan_unaligned_write4(void* a);
void __tsan_unaligned_write8(void* a);
void __tsan_unaligned_write16(void* a);

#define CUSIM_VOLATILE_HOOKS(size, type, bits)                                                          \
  __attribute__((weak)) void __tsan_volatile_read##size(void* a) {                                      \
    __tsan_atomic##bits##_load(static_cast<const volatile type*>(a), relaxed);                          \
  }                                                                                                     \
  __attribute__((weak)) void __tsan_volatile_write##size(void* a) {                                     \
    __tsan_atomic##bits##_fetch_add(static_cast<volatile type*>(a), 0, relaxed);                        \
  }
#define CUSIM_UNALIGNED_VOLATILE_HOOKS(size)                                                               \
  __attribute__((weak)) void __tsan_unaligned_volatile_read##size(void* a) { __tsan_unaligned_read##size(a); } \
  __attribute__((weak)) void __tsan_unaligned_volatile_write##size(void* a) { __tsan_unaligned_write##size(a); }
CUSIM_VOLATILE_HOOKS(1, char, 8)
CUSIM_VOLATILE_HOOKS(2, short, 16)
CUSIM_VOLATILE_HOOKS(4, int, 32)
CUSIM_VOLATILE_HOOKS(8, long, 64)
CUSIM_UNALIGNED_VOLATILE_HOOKS(2)
CUSIM_UNALIGNED_VOLATILE_HOOKS(4)
CUSIM_UNALIGNED_VOLATILE_HOOKS(8)
CUSIM_UNALIGNED_VOLATILE_HOOKS(16)
#undef CUSIM_VOLATILE_HOOKS
#undef CUSIM_UNALIGNED_VOLATILE_HOOKS

// 16 bytes (a volatile int4, double2): two relaxed 8-byte accesses.
__attribute__((weak)) void __tsan_volatile_read16(void* a) {
  __tsan_volatile_read8(a);
  __tsan_volatile_read8(static_cast<char*>(a) + 8);
}
__attribute__((weak)) void __tsan_volatile_write16(void* a) {
  __tsan_volatile_write8(a);
  __tsan_volatile_write8(static_cast<char*>(a) + 8);
}
}

#endif  // CUSIM_RACE_CHECK
