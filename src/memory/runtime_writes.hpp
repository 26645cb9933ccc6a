// The runtime's own writes into device memory: the copies and memsets of
// the API (cudaMemcpy*, cudaMemset*, in streams and graphs) and of the
// device runtime. They go through copy_bytes and set_bytes, so that a
// checker following which bytes have been written (cusim-cc --check=init,
// check/init_check.cpp) learns of them; kernels' own stores it sees
// through its instrumentation. With no checker, each is a memmove or a
// memset and one predictable branch.
#pragma once
#include <cstddef>

namespace cusim::detail {

struct runtime_write_observer {
  void (*copied_from)(const void* src, std::size_t count);  // before the copy
  void (*written)(const void* dst, std::size_t count);
  void (*made)();                   // an allocation of allocations.hpp, as it is made
  void (*freed)(const void* base);  // and as it is freed
};

// The checker's, set once before main; null: none.
void observe_runtime_writes(const runtime_write_observer* observer);

void copy_bytes(void* dst, const void* src, std::size_t count);  // memmove
void set_bytes(void* dst, int value, std::size_t count);         // memset
void note_written(const void* dst, std::size_t count);          // written otherwise
void note_allocation_made();
void note_allocation_freed(const void* base);

}  // namespace cusim::detail
