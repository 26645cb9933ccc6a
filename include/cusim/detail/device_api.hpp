// The engine calls device code makes: barriers and shared memory. The CUDA
// names (__syncthreads, __shared__ via cusim-cc) are thin wrappers over these.
#pragma once
#include <atomic>
#include <cstddef>
#include <type_traits>

#include <cusim/detail/config.hpp>

namespace cusim::detail {

// __syncthreads: waits until every thread of the block that has not exited
// has arrived at a barrier (any call site, sm_70+ semantics). Returns how many
// of the arriving threads passed a non-zero predicate, and how many arrived.
struct barrier_outcome {
  unsigned int true_count;
  unsigned int arrived;
};
barrier_outcome block_barrier(int predicate);

// One static __shared__ declaration site (one per template instantiation).
// Constant-initialised, so a declaration costs no guard check; the id is
// handed out the first time any block reaches the site.
struct shared_site {
  std::size_t size;
  std::size_t align;
  const char* name;
  const char* file;
  int line;
  std::atomic<unsigned int> id{0};
};

// The running block's storage for `site`, allocated in the block's arena on
// the first use by any of its threads. Every live block gets its own.
void* shared_slot(shared_site& site);

// The running block's dynamic (extern __shared__) memory, as sized at launch.
void* dynamic_shared();

}  // namespace cusim::detail

// A static __shared__ variable for code written against the C++ API; cusim-cc
// rewrites `__shared__ T name[N];` into this. `type` may be an array type.
#define CUSIM_SHARED(type, name) CUSIM_SHARED_AT_(type, name, CUSIM_CAT(cusim_shared_site_, __COUNTER__))
#define CUSIM_SHARED_AT_(type, name, site)                                                           \
  static constinit ::cusim::detail::shared_site site{sizeof(::std::type_identity_t<type>),           \
                                                     alignof(::std::type_identity_t<type>), #name,    \
                                                     __FILE__, __LINE__};                             \
  ::std::type_identity_t<type>& name = *static_cast<::std::type_identity_t<type>*>(::cusim::detail::shared_slot(site))

// `extern __shared__ T name[];`: a pointer to the launch's dynamic shared memory.
#define CUSIM_EXTERN_SHARED(type, name) type* const name = static_cast<type*>(::cusim::detail::dynamic_shared())
