// What cusim-cc's clang front end learned about a kernel at compile time
// (tools/cusim-cc/kernel_facts.hpp), registered before main runs: the
// runtime knows a kernel's static shared memory before its first launch
// (cudaFuncGetAttributes, occupancy, the launch limit check), and which
// kernels never wait for other threads. A kernel without facts (built
// without the front end, or a file clang could not parse) is assumed to do
// everything, and its static shared memory is learnt as its blocks run.
#pragma once
#include <cstddef>

namespace cusim::detail {

struct front_end_facts {
  std::size_t static_shared_bytes = 0;  // one block's static __shared__ variables, laid out in order
  bool waits = true;           // barriers, warp collectives, grid/cluster sync, device-side sync
  bool spins = true;           // atomics, fences, __nanosleep (points where a thread steps aside)
  bool launches = true;        // device-side launches
  bool dynamic_shared = true;  // extern __shared__ / the launch's dynamic shared memory
};

// `kernel` null: nothing (a weak reference to a kernel the program lacks).
void register_front_end_facts(const void* kernel, const front_end_facts& facts);
// For a kernel with internal linkage: the facts of the kernel cusim-cc
// notes at `site` ("file:line:name" of its definition; kernel_call.hpp).
void register_front_end_facts_at(const char* site, const front_end_facts& facts);
// The facts registered for `kernel`, or nullptr.
const front_end_facts* registered_front_end_facts(const void* kernel);

}  // namespace cusim::detail
