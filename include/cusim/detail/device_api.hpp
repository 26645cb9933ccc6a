// The engine calls device code makes: barriers and shared memory. The CUDA
// names (__syncthreads, __shared__ via cusim-cc) are thin wrappers over these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <vector_types.h>

#include <cusim/detail/config.hpp>

namespace cusim::detail {

// __syncthreads: waits until every thread of the block that has not exited
// has arrived at a barrier (any call site, sm_70+ semantics). Returns how many
// of the arriving threads passed a non-zero predicate, and how many arrived.
struct barrier_outcome {
  unsigned int true_count;
  unsigned int arrived;
};
// `file`/`line`: the call site, for reports (null: unknown).
CUSIM_FACT(waits) barrier_outcome block_barrier(int predicate, const char* file = nullptr, unsigned int line = 0);

// The barrier of threads [first, first + count) of the block (a tile of
// cooperative groups larger than a warp), and 8 bytes of scratch a thread
// for their collectives.
CUSIM_FACT(waits) void partial_block_barrier(unsigned int first, unsigned int count);
std::uint64_t* block_scratch();

// grid.sync() of cooperative groups: waits until every thread of the grid
// that has not exited has arrived. Only in cooperative launches; elsewhere
// the call is reported and the grid stops.
CUSIM_FACT(waits) void grid_barrier(const char* file, unsigned int line);

// Clusters (cluster_group): the running block's cluster shape, the cluster
// barrier's arrival (returns its phase) and wait, and distributed shared
// memory: the same variable in the block of rank `rank`, and the rank of
// the block whose shared memory holds `address`.
dim3 cluster_dims();
CUSIM_FACT(waits) std::uint64_t cluster_arrive();  // (it counts the block's exits as a wait does)
CUSIM_FACT(waits) void cluster_wait(std::uint64_t phase);
std::uint64_t cluster_last_arrival();
void* cluster_map_shared(void* address, unsigned int rank, const char* file, unsigned int line);
unsigned int cluster_query_rank(const void* address);

// One static __shared__ declaration site (one per template instantiation).
// Constant-initialised, so a declaration costs no guard check; the id is
// handed out the first time any block reaches the site.
struct shared_site {
  std::size_t size;
  std::size_t align;
  const char* name;
  const char* file;
  int line;
  unsigned int id = 0;  // accessed atomically (an atomic member would need <atomic>: atomic_cell.hpp)
};

// The running block's storage for `site`, allocated in the block's arena on
// the first use by any of its threads. Every live block gets its own.
void* shared_slot(shared_site& site);

// A steady clock in nanoseconds (without <chrono> in every .cu file:
// atomic_cell.hpp says why).
long long monotonic_nanoseconds();

// clock64() in a kernel: the steady clock in cycles of the current device's
// clock rate, read at a spin point (see device_functions.hpp).
CUSIM_FACT(spins) long long device_clock_cycles();

// The running block's dynamic (extern __shared__) memory, as sized at launch.
CUSIM_FACT(dynamic_shared) void* dynamic_shared();

// What PTX's special registers say of the running block that only the
// engine knows (inline PTX, src/ptx/): %smid (blocks go round the SMs in
// launch order), %gridid, %dynamic_smem_size, %total_smem_size,
// %cluster_ctarank.
struct block_position {
  unsigned int sm;
  std::uint64_t grid_serial;
  std::size_t dynamic_shared_bytes;
  std::size_t static_shared_bytes;
  unsigned int cluster_rank;
};
block_position running_block_position();

// %globaltimer: nanoseconds of the system's real-time clock.
long long wall_clock_nanoseconds();

// __trap() and __brkpt() (`what`) at file:line: the grid stops with
// cudaErrorLaunchFailure, sticky, as on a GPU; on the host, the process
// aborts.
[[noreturn]] void trap(const char* what, const char* file, unsigned int line);

// PTX `exit` (CUB's ThreadExit): the running CUDA thread ends here, from
// however deep in its calls, as if its kernel had returned; the block's
// other threads go on. Its frames are unwound (an exception the thread's
// runner catches), so their destructors run.
[[noreturn]] void exit_thread();

// What cusim-cc makes of `extern __shared__ T name[];`: converts to a T*
// into the running block's dynamic shared memory wherever it is used. Where
// clang marked the uses (tools/cusim-cc/front_end_marks.hpp), each is `get()`:
// the array of unknown bound itself, which is what the name is on a GPU.
template <class T>
struct dynamic_shared_array {
  using array = T[];
  array& get() const { return *static_cast<array*>(dynamic_shared()); }
  operator T*() const { return static_cast<T*>(dynamic_shared()); }
  // `(U*)smem`, as cuda-samples' SharedMemory<T> reinterprets an int array.
  template <class U>
  explicit operator U*() const {
    return static_cast<U*>(dynamic_shared());
  }
  T& operator[](std::ptrdiff_t i) const { return static_cast<T*>(dynamic_shared())[i]; }
};

// What cusim-cc makes of a `__shared__` variable declared at namespace
// scope: a view that finds the running block's slot on every use; a use
// clang marked (tools/cusim-cc/front_end_marks.hpp) is `get()`.
template <class T, shared_site* Site>
struct static_shared_view {
  T& get() const { return *static_cast<T*>(shared_slot(*Site)); }
  operator T&() const { return get(); }
  template <class I>
  decltype(auto) operator[](I i) const { return get()[i]; }
  template <class U>
  const static_shared_view& operator=(U&& value) const {
    get() = static_cast<U&&>(value);
    return *this;
  }
  auto operator&() const { return &get(); }
};

// What cusim-cc makes of a function-scope `__shared__` variable where clang
// marked its uses and the rewriter's reference would be wrong (a goto or
// case label past it, a lambda naming it): a constant static view; each use
// is `get()`. The site is a member, not a template argument: one naming a
// local static trips g++ 12's mangling in a local class of a template. No
// conversions: a use left unmarked would be refused, not silently the view
// (the rewriter checks there are none).
template <class T>
struct local_shared_view {
  shared_site* site;
  T& get() const { return *static_cast<T*>(shared_slot(*site)); }
};

// Memory spaces of generic addresses: cusim-cc registers each __constant__
// variable's storage (register_constant_memory) so __isConstant can tell.
bool register_constant_memory(const void* storage, std::size_t bytes);
// The storage of a __constant__ variable template's instance, registered
// as its reference is bound (each instance's, as the program names it).
template <class T>
T& registered_constant(T& storage) {
  register_constant_memory(&storage, sizeof storage);
  return storage;
}
bool in_constant_memory(const void* p);
bool in_shared_memory(const void* p);
bool in_local_memory(const void* p);

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

// The address-space predicates, for a pointer in device code.
inline unsigned int __isShared(const void* p) { return cusim::detail::in_shared_memory(p) ? 1u : 0u; }
inline unsigned int __isLocal(const void* p) { return cusim::detail::in_local_memory(p) ? 1u : 0u; }
inline unsigned int __isConstant(const void* p) { return cusim::detail::in_constant_memory(p) ? 1u : 0u; }
// Everything a kernel can point to that is not shared, local or constant is
// global memory: allocations, __device__ variables, the device heap.
inline unsigned int __isGlobal(const void* p) {
  return p != nullptr && !__isShared(p) && !__isLocal(p) && !__isConstant(p) ? 1u : 0u;
}
