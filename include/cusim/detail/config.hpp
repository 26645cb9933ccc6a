// Compiler switches shared by cusim's headers.
#pragma once

#define CUSIM_CAT_IMPL_(a, b) a##b
#define CUSIM_CAT(a, b) CUSIM_CAT_IMPL_(a, b)

// Whether this file is compiled with ThreadSanitizer or AddressSanitizer
// (cusim-cc --check=race, --check=memory): gcc says so with
// __SANITIZE_THREAD__ / __SANITIZE_ADDRESS__, clang 14 only through
// __has_feature.
#if defined(__SANITIZE_THREAD__)
#define CUSIM_SANITIZING_THREADS 1
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CUSIM_SANITIZING_ADDRESSES 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSIM_SANITIZING_THREADS 1
#endif
#if __has_feature(address_sanitizer)
#define CUSIM_SANITIZING_ADDRESSES 1
#endif
#endif

#if defined(__GNUC__) || defined(__clang__)
// A plain TLS pointer: no C++ thread_local wrapper call on every access, so
// reading threadIdx costs one load. The scheduler rewrites it on each switch.
// The initial-exec model keeps that so in position-independent code too
// (libcusim is, for programs built as shared libraries): the default model
// there is a call to __tls_get_addr in the compiler's eyes, even where the
// linker turns it into a load, and every function on a barrier's or a
// shuffle's path saved its arguments around it. (A shared library using it
// takes its 64 bytes from the static TLS space glibc keeps for libraries
// loaded with dlopen.) Only on x86-64: arm64 compilers use TLS descriptors,
// which the compiler knows preserve registers, and the arm64 linker's
// Cortex-A53 erratum fix fails on initial-exec accesses (platform.aarch64).
#if defined(__x86_64__)
#define CUSIM_THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))
#else
#define CUSIM_THREAD_LOCAL __thread
#endif
#define CUSIM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CUSIM_THREAD_LOCAL thread_local
#define CUSIM_ALWAYS_INLINE inline
#endif

// What cusim-cc's front end learns about each kernel (tools/cusim-cc/
// kernel_facts.hpp) follows the calls a kernel makes down to these marks on
// the runtime's entry points: a thread that reaches a `waits` entry waits for
// other threads (barriers, warp collectives, grid and cluster sync), a
// `spins` one steps aside for its block (spin points), a `launches` one
// starts a grid, and `dynamic_shared` hands out the launch's dynamic shared
// memory. Only the front end's parse defines __CUSIM_KERNEL_FACTS__.
#if defined(__CUSIM_KERNEL_FACTS__)
#define CUSIM_FACT(what) __attribute__((annotate("cusim:" #what)))
#else
#define CUSIM_FACT(what)
#endif
