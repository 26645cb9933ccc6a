// The 16-byte compare-and-swap behind sm_90's 128-bit atomicCAS and
// atomicExch (atomic_functions.hpp). The compiler's own 16-byte atomics
// call libatomic, which programs would then have to link; the runtime's
// platform layer has one instruction for it where the machine has one
// (lock cmpxchg16b on x86-64) and a lock per address elsewhere.
#pragma once

namespace cusim::detail {

// If the 16 bytes at `address` (16-byte aligned) equal those at `expected`,
// stores those at `desired` there; either way `expected` receives the bytes
// found. True when it stored them.
bool compare_exchange_16(void* address, void* expected, const void* desired);

}  // namespace cusim::detail
