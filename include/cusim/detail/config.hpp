// Compiler switches shared by cusim's headers.
#pragma once

#define CUSIM_CAT_IMPL_(a, b) a##b
#define CUSIM_CAT(a, b) CUSIM_CAT_IMPL_(a, b)

#if defined(__GNUC__) || defined(__clang__)
// A plain TLS pointer: no C++ thread_local wrapper call on every access, so
// reading threadIdx costs one load. The scheduler rewrites it on each switch.
#define CUSIM_THREAD_LOCAL __thread
#define CUSIM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CUSIM_THREAD_LOCAL thread_local
#define CUSIM_ALWAYS_INLINE inline
#endif
