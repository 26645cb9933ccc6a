// Skipping ahead in cuRAND's generators (<curand_kernel.h>): the XORWOW and
// MRG32k3a states move on by a linear map per element, so a jump of n
// elements is that map raised to the power n. The powers are built once per
// process in the runtime (src/libraries/curand_skipahead.cpp) rather than
// kept in this header as the tables NVIDIA ships, so that including
// <curand_kernel.h> stays cheap.
#pragma once

namespace cusim::detail {

// How far one unit of a jump moves a generator: one element, one
// subsequence (curand_init's second argument: 2^67 elements for XORWOW,
// 2^76 for MRG32k3a) or one sequence (MRG32k3a's skipahead_sequence: 2^127).
enum class curand_stride { element, subsequence, sequence };

// Moves XORWOW's five xorshift words n strides on. The Weyl counter d is the
// caller's: it moves by 362437 per element, which is 0 mod 2^32 per
// subsequence.
void xorwow_skipahead(unsigned int (&v)[5], unsigned long long n, curand_stride stride);

// Moves MRG32k3a's two component states n strides on.
void mrg32k3a_skipahead(unsigned int (&s1)[3], unsigned int (&s2)[3], unsigned long long n, curand_stride stride);

}  // namespace cusim::detail
