// Device and managed buffers under 2 MiB (allocations.cpp maps larger ones
// apart) come from regions of their own, as a GPU's driver suballocates
// its pages, not from the host heap: a kernel that writes past the end of
// one lands in device memory (the next buffer, or space no buffer holds)
// as it would on a GPU, where the program runs on, instead of in the
// runtime's own data on the heap, where the next launch crashed with no
// report (Learn-CUDA-Programming's pack_n_split writes 2 KiB past a 2 KiB
// buffer).
#pragma once
#include <cstddef>

namespace cusim::detail::small_buffers {

// Whether small buffers come from the regions: not where a checker tracks
// the heap's blocks itself (AddressSanitizer's redzones and quarantine,
// ThreadSanitizer's reset of a reused block, Valgrind's memcheck), which
// reports such a write where it happens.
bool used();

// `size` bytes (a multiple of 256), 256-byte aligned; nullptr when no
// region can be reserved.
void* take(std::size_t size);

// Returns what take() gave.
void give_back(void* p, std::size_t size);

}  // namespace cusim::detail::small_buffers
