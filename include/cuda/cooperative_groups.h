// cusim's cooperative_groups.h: the groups CUDA code names, built on the
// engine's barriers and warp collectives. Warp-sized groups (tiles of up to
// 32 threads, coalesced groups, labeled and binary partitions) are a mask of
// lanes of one warp; their collectives are the *_sync intrinsics with that
// mask, so misuse is reported exactly as for the intrinsics.
#pragma once
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_
#endif
#include <cstring>
#include <type_traits>

#include "cuda_runtime.h"
#include <cusim/detail/async_copy.hpp>

namespace cooperative_groups {

namespace details {

inline unsigned int linear_thread_id() { return ::cusim::detail::this_thread_context().linear_tid; }
inline unsigned int lane_id() { return linear_thread_id() % 32u; }
inline unsigned int block_thread_count() {
  const dim3 d = ::cusim::detail::this_thread_context().block_dim;
  return d.x * d.y * d.z;
}
// The rank of `lane` among the set bits of `mask`, and the lane of rank `rank`.
inline unsigned int rank_in(unsigned int mask, unsigned int lane) { return __popc(mask & ((1u << lane) - 1u)); }
inline unsigned int lane_of_rank(unsigned int mask, unsigned int rank) {
  for (unsigned int lane = 0; lane < 32; ++lane) {
    if ((mask & (1u << lane)) != 0 && rank-- == 0) return lane;
  }
  return 0;
}
// Compresses the bits of `bits` at the positions of `mask` into the low bits, in order.
inline unsigned int compress(unsigned int bits, unsigned int mask) {
  unsigned int out = 0, next = 0;
  for (unsigned int lane = 0; lane < 32; ++lane) {
    if ((mask & (1u << lane)) == 0) continue;
    if ((bits & (1u << lane)) != 0) out |= 1u << next;
    ++next;
  }
  return out;
}

// A shuffle of any trivially copyable value: 8 bytes at a time.
template <class T, class Shuffle>
T shuffle_any(const T& value, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative groups shuffle trivially copyable types");
  if constexpr (sizeof(T) <= 8) {
    unsigned long long bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    bits = shuffle(bits);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
  } else {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (std::size_t at = 0; at < sizeof(T); at += 8) {
      unsigned long long chunk = 0;
      const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
      std::memcpy(&chunk, bytes + at, n);
      chunk = shuffle(chunk);
      std::memcpy(bytes + at, &chunk, n);
    }
    T out;
    std::memcpy(&out, bytes, sizeof(T));
    return out;
  }
}

// What every group of lanes of one warp shares: the mask, and the
// collectives expressed with it.
class lane_group {
 public:
  explicit lane_group(unsigned int mask) : mask_(mask) {}

  unsigned int num_threads() const { return __popc(mask_); }
  unsigned int size() const { return num_threads(); }
  unsigned int thread_rank() const { return rank_in(mask_, lane_id()); }
  void sync() const { __syncwarp(mask_); }

  // Ballots in rank order (bit r: the thread of rank r).
  unsigned int ballot(int predicate) const { return compress(__ballot_sync(mask_, predicate), mask_); }
  int any(int predicate) const { return __any_sync(mask_, predicate); }
  int all(int predicate) const { return __all_sync(mask_, predicate); }
  template <class T>
  unsigned int match_any(T value) const {
    return compress(__match_any_sync(mask_, value), mask_);
  }
  template <class T>
  unsigned int match_all(T value, int& predicate) const {
    return compress(__match_all_sync(mask_, value, &predicate), mask_);
  }
  // Reads the value of the thread of rank `rank`.
  template <class T>
  T shfl(T var, unsigned int rank) const {
    const int lane = static_cast<int>(lane_of_rank(mask_, rank % num_threads()));
    return shuffle_any(var, [&](unsigned long long bits) { return __shfl_sync(mask_, bits, lane); });
  }

  unsigned int get_mask() const { return mask_; }

 protected:
  unsigned int mask_;
};

}  // namespace details

// Operators for reduce and scan.
template <class T = void>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T = void>
struct less {  // reduce(g, v, less<T>()) gives the minimum
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T = void>
struct greater {  // ... the maximum
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T = void>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T = void>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T = void>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

// Any group: what CUDA's thread_group is. Every group type derives from it,
// so a helper written against `const thread_group&` (or taking one by value)
// takes a block, a tile, a coalesced group, a cluster or the grid, and its
// sync(), thread_rank() and num_threads() act on the group it was given.
class thread_group {
 public:
  void sync() const;
  unsigned long long thread_rank() const;
  unsigned long long num_threads() const;
  unsigned long long size() const { return num_threads(); }
  // Rank among the groups the parent was split into (tiles and partitions).
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }

  // Which group it is (cusim's; CUDA's get_type() answers the like).
  enum class kind : unsigned char {
    lanes,      // lanes of one warp: tiles of up to 32, coalesced groups, partitions
    block,      // the thread block
    grid,       // the grid
    cluster,    // the thread-block cluster
    wide_tile,  // a tile of whole warps (64..512 threads), from the dynamic tiled_partition
  };

 protected:
  explicit thread_group(kind k, unsigned int lanes = 0, unsigned int tile_size = 0, unsigned int meta_rank = 0,
                        unsigned int meta_size = 1)
      : kind_(k), lanes_(lanes), tile_size_(tile_size), meta_rank_(meta_rank), meta_size_(meta_size) {}
  friend thread_group tiled_partition(const thread_group& parent, unsigned int n);

 private:
  kind kind_;
  unsigned int lanes_;
  unsigned int tile_size_;
  unsigned int meta_rank_;
  unsigned int meta_size_;
};

// The block of the calling thread.
class thread_block : public thread_group {
 public:
  thread_block() : thread_group(kind::block) {}
  static void sync() { __syncthreads(); }
  static unsigned int thread_rank() { return details::linear_thread_id(); }
  static unsigned int num_threads() { return details::block_thread_count(); }
  static unsigned int size() { return num_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 group_dim() { return blockDim; }
  static dim3 dim_threads() { return blockDim; }
};
inline thread_block this_thread_block() { return {}; }
// Scratch for tiles of more than 32 threads, which GPUs before sm_80 need
// (CUDA 11); cusim's blocks have their own, so it is accepted and unused.
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory {};
template <unsigned int MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return {};
}

// The whole grid. sync() needs a cooperative launch (cudaLaunchCooperativeKernel).
class grid_group : public thread_group {
 public:
  grid_group() : thread_group(kind::grid) {}
  void sync(const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) const {
    ::cusim::detail::grid_barrier(file, line);
  }
  // True in every launch, as an H100 with CUDA 13 answers; grid.sync() still needs a cooperative one.
  bool is_valid() const { return true; }
  unsigned long long block_rank() const {
    return blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  }
  unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
  unsigned long long thread_rank() const { return block_rank() * details::block_thread_count() + details::linear_thread_id(); }
  unsigned long long num_threads() const { return num_blocks() * details::block_thread_count(); }
  unsigned long long size() const { return num_threads(); }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 dim_blocks() const { return gridDim; }
  dim3 group_dim() const { return gridDim; }
};
inline grid_group this_grid() { return {}; }

// The thread-block cluster of the calling block (sm_90; without a cluster
// launch, a cluster of one block). Its blocks are resident together, so a
// block may use another's shared memory through map_shared_rank.
class cluster_group : public thread_group {
 public:
  cluster_group() : thread_group(kind::cluster) {}
  struct arrival_token {
    unsigned long long phase;
  };
  static bool is_valid() { return true; }
  static dim3 dim_blocks() { return ::cusim::detail::cluster_dims(); }
  static unsigned int num_blocks() {
    const dim3 d = dim_blocks();
    return d.x * d.y * d.z;
  }
  static dim3 block_index() {
    const dim3 d = dim_blocks();
    return dim3(blockIdx.x % d.x, blockIdx.y % d.y, blockIdx.z % d.z);
  }
  static unsigned int block_rank() {
    const dim3 d = dim_blocks(), i = block_index();
    return i.x + d.x * (i.y + d.y * i.z);
  }
  static unsigned int num_threads() { return num_blocks() * details::block_thread_count(); }
  static unsigned int size() { return num_threads(); }
  static dim3 dim_threads() {
    const dim3 d = dim_blocks();
    return dim3(d.x * blockDim.x, d.y * blockDim.y, d.z * blockDim.z);
  }
  static unsigned int thread_rank() { return block_rank() * details::block_thread_count() + details::linear_thread_id(); }

  static void sync() { ::cusim::detail::cluster_wait(::cusim::detail::cluster_arrive()); }
  static arrival_token barrier_arrive() { return {::cusim::detail::cluster_arrive()}; }
  static void barrier_wait() { ::cusim::detail::cluster_wait(::cusim::detail::cluster_last_arrival()); }
  static void barrier_wait(arrival_token&& token) { ::cusim::detail::cluster_wait(token.phase); }

  // The same __shared__ variable (or dynamic shared memory) in the block of rank `rank`.
  template <class T>
  static T* map_shared_rank(T* address, unsigned int rank, const char* file = __builtin_FILE(),
                            unsigned int line = __builtin_LINE()) {
    return static_cast<T*>(::cusim::detail::cluster_map_shared(
        const_cast<void*>(static_cast<const volatile void*>(address)), rank, file, line));
  }
  // `extern __shared__ T s[]` as cusim-cc declares it at namespace scope
  // (an object that converts to T*, which deduction alone would not see):
  // the Programming Guide's cluster.map_shared_rank(smem, rank). In a
  // function, s is a T* and the overload above takes it.
  template <class T>
  static T* map_shared_rank(const ::cusim::detail::dynamic_shared_array<T>& address, unsigned int rank,
                            const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
    return map_shared_rank(static_cast<T*>(address), rank, file, line);
  }
  template <class T>
  static unsigned int query_shared_rank(const ::cusim::detail::dynamic_shared_array<T>& address) {
    return query_shared_rank(static_cast<T*>(address));
  }
  template <class T>
  static unsigned int query_shared_rank(T* address) {
    return ::cusim::detail::cluster_query_rank(static_cast<const volatile void*>(address) == nullptr
                                                   ? nullptr
                                                   : const_cast<const void*>(static_cast<const volatile void*>(address)));
  }
};
inline cluster_group this_cluster() { return {}; }

// The active lanes of the warp at the call (a coalesced group), or a
// partition of a warp-sized group.
class coalesced_group : public thread_group, public details::lane_group {
 public:
  explicit coalesced_group(unsigned int mask) : thread_group(kind::lanes, mask), details::lane_group(mask) {}
  using details::lane_group::num_threads;
  using details::lane_group::size;
  using details::lane_group::sync;
  using details::lane_group::thread_rank;
  template <class T>
  T shfl_up(T var, unsigned int delta) const {
    const unsigned int rank = thread_rank();
    return shfl(var, rank >= delta ? rank - delta : rank);
  }
  template <class T>
  T shfl_down(T var, unsigned int delta) const {
    const unsigned int rank = thread_rank();
    return shfl(var, rank + delta < num_threads() ? rank + delta : rank);
  }
};
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

namespace details {

// A tile of N consecutive threads of one warp (N a power of two, at most 32).
template <unsigned int N>
class warp_tile : public lane_group {
 public:
  static constexpr unsigned int tile_mask() { return N == 32 ? 0xffffffffu : (1u << N) - 1u; }
  warp_tile() : lane_group(tile_mask() << (lane_id() & ~(N - 1))) {}

  static constexpr unsigned int num_threads() { return N; }
  static constexpr unsigned int size() { return N; }
  unsigned int thread_rank() const { return lane_id() & (N - 1); }
  unsigned int meta_group_rank() const { return linear_thread_id() / N; }
  unsigned int meta_group_size() const { return (block_thread_count() + N - 1) / N; }

  template <class T>
  T shfl(T var, int src_rank) const {
    return shuffle_any(var, [&](unsigned long long bits) { return __shfl_sync(mask_, bits, src_rank, N); });
  }
  template <class T>
  T shfl_up(T var, unsigned int delta) const {
    return shuffle_any(var, [&](unsigned long long bits) { return __shfl_up_sync(mask_, bits, delta, N); });
  }
  template <class T>
  T shfl_down(T var, unsigned int delta) const {
    return shuffle_any(var,
                                [&](unsigned long long bits) { return __shfl_down_sync(mask_, bits, delta, N); });
  }
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask) const {
    return shuffle_any(
        var, [&](unsigned long long bits) { return __shfl_xor_sync(mask_, bits, static_cast<int>(lane_mask), N); });
  }

};

// A tile of N consecutive threads spanning whole warps (N = 64, 128, 256 or
// 512, as CUDA allows): sync() is a barrier of those threads, and the
// collectives pass values through 8 bytes of block scratch a thread,
// between two syncs.
template <unsigned int N>
class multi_warp_tile {
 public:
  static constexpr unsigned int num_threads() { return N; }
  static constexpr unsigned int size() { return N; }
  unsigned int thread_rank() const { return linear_thread_id() % N; }
  unsigned int meta_group_rank() const { return linear_thread_id() / N; }
  unsigned int meta_group_size() const { return (block_thread_count() + N - 1) / N; }
  void sync() const { ::cusim::detail::partial_block_barrier(first(), N); }

  template <class T>
  T shfl(T var, unsigned int src_rank) const {
    const unsigned long long* values = exchange(var);
    return from_bits<T>(values[first() + src_rank % N]);
  }
  int any(int predicate) const { return fold(predicate != 0 ? 1 : 0, [](int a, int b) { return a | b; }); }
  int all(int predicate) const { return fold(predicate != 0 ? 1 : 0, [](int a, int b) { return a & b; }); }

  // op over every thread's value, in rank order (for reduce).
  template <class T, class Op>
  T fold(T value, Op op, unsigned int through_rank = N) const {
    const unsigned long long* values = exchange(value);
    const unsigned int present = block_thread_count() - first() < N ? block_thread_count() - first() : N;
    const unsigned int last = through_rank < present ? through_rank : present;
    T acc = from_bits<T>(values[first()]);
    for (unsigned int r = 1; r < last; ++r) acc = op(acc, from_bits<T>(values[first() + r]));
    return acc;
  }

 private:
  unsigned int first() const { return linear_thread_id() / N * N; }
  template <class T>
  static T from_bits(unsigned long long bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
  }
  // Every thread of the tile publishes `value`; the tile's values, once all are in.
  template <class T>
  const unsigned long long* exchange(const T& value) const {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                  "collectives of tiles larger than 32 threads take values of at most 8 bytes, as in CUDA");
    unsigned long long* scratch = reinterpret_cast<unsigned long long*>(::cusim::detail::block_scratch());
    sync();  // everyone has read what the previous collective left
    unsigned long long bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    scratch[linear_thread_id()] = bits;
    sync();
    return scratch;
  }
};

template <unsigned int N>
using tile_base = std::conditional_t<(N <= 32), warp_tile<N>, multi_warp_tile<N>>;

}  // namespace details

namespace details {
// Tiles of up to 32 threads are thread_groups; larger ones are not, as in CUDA
// (nvcc refuses to convert a thread_block_tile<64> to thread_group).
struct not_a_thread_group {
  template <class... Any>
  explicit not_a_thread_group(Any...) {}
};
}  // namespace details

// A tile of N consecutive threads of the block: N a power of two up to 512.
template <unsigned int N>
class thread_block_tile : public std::conditional_t<(N <= 32), thread_group, details::not_a_thread_group>,
                          public details::tile_base<N> {
  static_assert(N > 0 && N <= 512 && (N & (N - 1)) == 0,
                "thread_block_tile<N>: N must be a power of two, at most 512 (as in CUDA)");
  using base = details::tile_base<N>;
  using group_base = std::conditional_t<(N <= 32), thread_group, details::not_a_thread_group>;

 public:
  thread_block_tile()
      : group_base(group_kind(), group_lanes(), N, details::linear_thread_id() / N,
                   (details::block_thread_count() + N - 1) / N) {}
  using base::meta_group_rank;
  using base::meta_group_size;
  using base::num_threads;
  using base::size;
  using base::sync;
  using base::thread_rank;

 private:
  static constexpr thread_group::kind group_kind() { return thread_group::kind::lanes; }
  static unsigned int group_lanes() {
    if constexpr (N <= 32) return details::warp_tile<N>::tile_mask() << (details::lane_id() & ~(N - 1));
    return 0;
  }
};

template <unsigned int N, class Parent>
thread_block_tile<N> tiled_partition(const Parent&) {
  return {};
}

// A tile of `n` threads (a power of two) of any group: of a block (or a tile
// of whole warps), consecutive threads, up to 512; of a warp-sized group,
// runs of `n` of its ranks.
inline thread_group tiled_partition(const thread_group& parent, unsigned int n) {
  using kind = thread_group::kind;
  if (parent.kind_ != kind::lanes) {
    const unsigned int id = details::linear_thread_id(), count = details::block_thread_count();
    if (n > 32) return thread_group(kind::wide_tile, 0, n, id / n, (count + n - 1) / n);
    const unsigned int mask = (n == 32 ? 0xffffffffu : (1u << n) - 1u) << (details::lane_id() & ~(n - 1));
    return thread_group(kind::lanes, mask, n, id / n, (count + n - 1) / n);
  }
  // Ranks of the parent, cut into runs of n.
  const unsigned int parent_mask = parent.lanes_;
  const unsigned int rank = details::rank_in(parent_mask, details::lane_id());
  const unsigned int first = rank / n * n;
  unsigned int mask = 0;
  for (unsigned int r = first; r < first + n && r < __popc(parent_mask); ++r) {
    mask |= 1u << details::lane_of_rank(parent_mask, r);
  }
  return thread_group(kind::lanes, mask, n, rank / n, (__popc(parent_mask) + n - 1) / n);
}

inline void thread_group::sync() const {
  switch (kind_) {
    case kind::lanes: return __syncwarp(lanes_);
    case kind::block: return thread_block::sync();
    case kind::grid: return grid_group().sync();
    case kind::cluster: return cluster_group::sync();
    case kind::wide_tile:
      return ::cusim::detail::partial_block_barrier(details::linear_thread_id() / tile_size_ * tile_size_, tile_size_);
  }
}
inline unsigned long long thread_group::thread_rank() const {
  switch (kind_) {
    case kind::lanes: return details::rank_in(lanes_, details::lane_id());
    case kind::block: return thread_block::thread_rank();
    case kind::grid: return grid_group().thread_rank();
    case kind::cluster: return cluster_group::thread_rank();
    case kind::wide_tile: return details::linear_thread_id() % tile_size_;
  }
  return 0;
}
inline unsigned long long thread_group::num_threads() const {
  switch (kind_) {
    case kind::lanes: return __popc(lanes_);
    case kind::block: return thread_block::num_threads();
    case kind::grid: return grid_group().num_threads();
    case kind::cluster: return cluster_group::num_threads();
    case kind::wide_tile: return tile_size_;
  }
  return 0;
}

// The threads of the group with the same label, or the same predicate.
template <class Group>
coalesced_group labeled_partition(const Group& parent, int label) {
  return coalesced_group(__match_any_sync(details::lane_group(parent).get_mask(), label));
}
template <class Group>
coalesced_group binary_partition(const Group& parent, bool predicate) {
  return labeled_partition(parent, predicate ? 1 : 0);
}

// The calling thread alone.
inline thread_block_tile<1> this_thread() { return {}; }

template <class Group>
void sync(const Group& group) {
  group.sync();
}

// Reduces `value` over the group with `op`; every thread gets the result.
// Tiles combine by halves (shfl_xor); other groups rank by rank.
template <unsigned int N, class T, class Op>
T reduce(const thread_block_tile<N>& tile, T value, Op op) {
  if constexpr (N <= 32) {
    for (unsigned int half = N / 2; half > 0; half /= 2) value = op(value, tile.shfl_xor(value, half));
    return value;
  } else {
    return tile.fold(value, op);
  }
}
// Groups whose threads are a tile or the coalesced lanes of a warp, as
// CUDA's reduce and scans require (a thread_group from the dynamic
// tiled_partition is refused, as nvcc refuses it).
template <class Group>
concept reducible_group = std::is_same_v<Group, coalesced_group>;

template <class Group, class T, class Op>
  requires reducible_group<Group>
T reduce(const Group& group, T value, Op op) {
  const unsigned int n = static_cast<unsigned int>(group.num_threads());
  T total = group.shfl(value, 0u);
  for (unsigned int r = 1; r < n; ++r) total = op(total, group.shfl(value, r));
  return total;
}

// Scans over the ranks of the group: rank r gets op over ranks 0..r (inclusive) or 0..r-1 (exclusive).
template <unsigned int N, class T, class Op>
  requires(N > 32)
T inclusive_scan(const thread_block_tile<N>& tile, T value, Op op) {
  return tile.fold(value, op, tile.thread_rank() + 1);
}
template <unsigned int N, class T, class Op>
  requires(N > 32)
T exclusive_scan(const thread_block_tile<N>& tile, T value, Op op) {
  const T before = tile.fold(value, op, tile.thread_rank());
  return tile.thread_rank() == 0 ? T{} : before;
}
template <class Group, class T, class Op>
  requires reducible_group<Group> || requires { Group::size(); }
T inclusive_scan(const Group& group, T value, Op op) {
  const unsigned int n = static_cast<unsigned int>(group.num_threads());
  const unsigned int me = group.thread_rank();
  T acc = group.shfl(value, 0u);
  for (unsigned int r = 1; r < n; ++r) {
    const T next = group.shfl(value, r);
    if (r <= me) acc = op(acc, next);
  }
  return acc;
}
template <class Group, class T>
T inclusive_scan(const Group& group, T value) {
  return inclusive_scan(group, value, plus<T>());
}
template <class Group, class T, class Op>
  requires reducible_group<Group> || requires { Group::size(); }
T exclusive_scan(const Group& group, T value, Op op) {
  const unsigned int n = static_cast<unsigned int>(group.num_threads());
  const unsigned int me = group.thread_rank();
  T acc{};
  for (unsigned int r = 0; r + 1 < n; ++r) {
    const T next = group.shfl(value, r);
    if (r < me) acc = r == 0 ? next : op(acc, next);
  }
  return acc;  // rank 0 gets T{}: CUDA leaves it undefined
}
template <class Group, class T>
T exclusive_scan(const Group& group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

// One thread of the group calls `fn` (the one of rank 0).
template <class Group, class Fn, class... Args>
void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  if (group.thread_rank() == 0) static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
}
// ... and every thread gets its result.
template <class Group, class Fn, class... Args>
auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args) {
  decltype(static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...)) result{};
  if (group.thread_rank() == 0) result = static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  return group.shfl(result, 0u);
}

// memcpy_async: the group's threads share the copy; wait() makes it visible
// to all of them (it is a sync of the group).
template <class Group>
void memcpy_async(const Group& group, void* dst, const void* src, std::size_t bytes) {
  ::cusim::detail::async_copy(dst, src, bytes, group.thread_rank(), group.num_threads(), nullptr, 0);
}
template <class Group>
void wait(const Group& group) {
  group.sync();
}
template <class Group>
void wait_prior(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups
