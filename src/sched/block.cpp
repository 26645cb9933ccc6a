#include "sched/block.hpp"

#include <algorithm>
#include <atomic>
#include <climits>

#include <fmt/format.h>

#include "memory/unwritten.hpp"
#include "sched/grid.hpp"
#include "sched/race_check.hpp"
#include "sched/schedule.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

namespace {

// Alignment of the dynamic part and of each static slot: generous enough for
// any vector type, as a GPU's shared memory is for these declarations.
constexpr std::size_t shared_alignment = 16;
// The arena's own alignment, so that offsets aligned for a declaration
// (`__align__(n)`, `alignas(n)`, up to this) are aligned addresses too.
constexpr std::size_t arena_alignment = 1024;
// Checking addresses, each shared variable is followed by a redzone: room
// for those of about a thousand variables.
constexpr std::size_t redzone_room = address_check::enabled ? 64 * 1024 : 0;

std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

unsigned int site_id(shared_site& site) {
  static std::atomic<unsigned int> next_id{1};
  std::atomic_ref<unsigned int> site_id(site.id);
  unsigned int id = site_id.load(std::memory_order_acquire);
  if (id != 0) return id;
  unsigned int fresh = next_id.fetch_add(1, std::memory_order_relaxed);
  return site_id.compare_exchange_strong(id, fresh, std::memory_order_acq_rel) ? fresh : id;
}

}  // namespace

void (*block_finished_observer)(const block_state& block) = nullptr;

block_state::block_state(std::size_t arena_capacity) : arena_capacity_(arena_capacity + redzone_room) {
  renew_arena();
}

void block_state::renew_arena() {
  // Under race checking, the allocation is what makes ThreadSanitizer forget
  // the accesses of the block that had this place before: freed and
  // allocated again while it ignores the thread, the bytes are new to it.
  race::runtime_only_section runtime_only;
  arena_.reset();
  arena_.reset(static_cast<std::byte*>(
      ::operator new[](std::max(arena_capacity_, shared_alignment), std::align_val_t{arena_alignment})));
  address_check::poison(arena_.get(), arena_capacity_);
}

void block_state::arena_deleter::operator()(std::byte* arena) const {
  ::operator delete[](arena, std::align_val_t{arena_alignment});
}

void block_state::start(grid_job& grid, std::uint64_t linear) {
  // Unique in the process; taken by the thousand, so that workers starting
  // blocks do not contend for the counter at each one.
  static std::atomic<std::uint64_t> next_batch{1};
  static CUSIM_THREAD_LOCAL std::uint64_t next_serial = 0, batch_end = 0;
  constexpr std::uint64_t batch = 1024;
  if (next_serial == batch_end) {
    next_serial = next_batch.fetch_add(batch, std::memory_order_relaxed);
    batch_end = next_serial + batch;
  }
  serial_ = next_serial++;
  grid_ = &grid;
  linear_ = linear;
  block_idx_ = grid.block_index(linear);
  thread_count_ = grid.threads_per_block();
  next_thread_ = 0;
  queued_starter = nullptr;
  choose_thread_order();
  exited_ = 0;
  activity_ = block_activity{};
  partial_barriers_.clear();
  barrier_arrived_ = 0;
  barrier_true_ = 0;
  barrier_waiters_ = fiber_queue{};
  barrier_race_token = race::fresh_token();
  barrier_file = nullptr;
  const unsigned int warp_count = (thread_count_ + lanes_per_warp - 1) / lanes_per_warp;
  warps_.resize(warp_count);
  for (unsigned int w = 0; w < warp_count; ++w) {
    const unsigned int lanes = std::min(lanes_per_warp, thread_count_ - w * lanes_per_warp);
    warps_[w].reset(lanes == lanes_per_warp ? ~0u : (1u << lanes) - 1u, *this, w);
  }
  // Race checking: new shared memory, rather than an order between this
  // block and the one before it in this place, which would hide the races
  // between them on global memory (one worker runs a grid's blocks one
  // after another, all in one place).
  if constexpr (race::enabled) {
    renew_arena();
    race_followed = race::follows_block(grid, linear);
  }
  // Only the dynamic part is addressable until static variables get their
  // places (beyond what an earlier block used, the arena is poisoned still).
  address_check::poison(arena_.get(), arena_used_);
  arena_used_ = align_up(grid.shape().dynamic_shared_bytes, shared_alignment);
  address_check::unpoison(arena_.get(), grid.shape().dynamic_shared_bytes);
  mark_unwritten(arena_.get(), grid.shape().dynamic_shared_bytes);  // whatever an earlier block left there
  static_bytes_ = 0;
  slots_.clear();
  cluster = nullptr;
  cluster_rank = 0;
  finished = false;
  launched.clear();
  children = nullptr;
  awaiting_children = false;
  fibers.clear();
}

void block_state::choose_thread_order() {
  thread_order_.clear();
  // The grid's, read at its launch, as how its threads start is: a policy
  // set while it runs does not reorder threads its loop would take in order.
  if (!grid_->scheduled()) return;
  const schedule_policy& policy = active_schedule();
  if (policy.kind == schedule_kind::in_order) return;
  thread_order_.resize(thread_count_);
  for (unsigned int i = 0; i < thread_count_; ++i) thread_order_[i] = i;
  if (policy.kind == schedule_kind::reverse) {
    std::reverse(thread_order_.begin(), thread_order_.end());
    return;
  }
  schedule_random random(policy.seed ^ (grid_->serial() << 32) ^ (linear_ * 0xd6e8feb86659fd93ull));
  for (unsigned int i = thread_count_; i > 1; --i) std::swap(thread_order_[i - 1], thread_order_[random.below(i)]);
}

bool block_state::take_thread_afresh(thread_context& thread) {
  const unsigned int taken = next_thread_++;
  const unsigned int t = thread_order_.empty() ? taken : thread_order_[taken];
  const dim3 dim = grid_->shape().block;
  thread.thread_idx = t < dim.x ? uint3{t, 0, 0} : thread_index_at(t, dim);
  set_linear_tid(thread, t);
  thread.last_error = 0;
  thread.block = this;
  thread.activity = &activity_;
  thread.block_idx = block_idx_;
  thread.block_dim = dim;
  thread.grid_dim = grid_->shape().grid;
  return true;
}

const block_activity& block_state::activity() {
  activity_.warp_collectives = 0;
  for (const warp_state& w : warps_) activity_.warp_collectives += w.completed_collectives();
  return activity_;
}

bool block_state::threads_exited(unsigned int first, unsigned int count, fiber_queue& woken) {
  exited_ += count;
  const unsigned int end = first + count;
  // One update per warp the range touches.
  for (unsigned int t = first; t < end;) {
    const unsigned int lane = t % lanes_per_warp;
    const unsigned int lanes = std::min(lanes_per_warp - lane, end - t);
    const unsigned int mask = lanes == lanes_per_warp ? ~0u : ((1u << lanes) - 1) << lane;
    warp_of(t).lanes_exited(mask, woken);
    t += lanes;
  }
  if (!partial_barriers_.empty()) complete_partial_barriers(woken);
  return exited_ == thread_count_;
}

bool block_state::partial_barrier_arrive(fiber& self, unsigned int first, unsigned int count, fiber_queue& woken) {
  auto it = std::find_if(partial_barriers_.begin(), partial_barriers_.end(),
                         [&](const partial_barrier& b) { return b.first == first && b.count == count; });
  if (it == partial_barriers_.end()) {
    it = partial_barriers_.insert(partial_barriers_.end(), {first, count, 0, {}, race::fresh_token()});
  }
  self.race_token = it->race_token;
  ++it->arrived;
  it->waiters.push_back(&self);
  const std::size_t before = partial_barriers_.size();
  complete_partial_barriers(woken);
  return partial_barriers_.size() < before;
}

void block_state::complete_partial_barriers(fiber_queue& woken) {
  std::erase_if(partial_barriers_, [&](partial_barrier& b) {
    unsigned int exited = 0;
    for (unsigned int t = b.first; t < b.first + b.count && t < thread_count_; ++t) exited += has_exited(t) ? 1 : 0;
    const unsigned int present = std::min(b.count, thread_count_ - std::min(b.first, thread_count_));
    if (b.arrived + exited < present) return false;
    ++activity_.barriers;
    woken.append(b.waiters);
    return true;
  });
}

std::uint64_t* block_state::scratch() {
  if (scratch_.size() < thread_count_) scratch_.resize(thread_count_);
  return scratch_.data();
}

void block_state::release_barrier(fiber_queue& woken) {
  released_outcome_ = barrier_outcome{barrier_true_, barrier_arrived_};
  ++activity_.barriers;
  if (trace::enabled) trace::barrier(trace_identity(), barrier_started_, trace::now(), barrier_file, barrier_line);
  barrier_race_token = race::fresh_token();  // the next barrier's
  barrier_file = nullptr;
  barrier_arrived_ = 0;
  barrier_true_ = 0;
  for (warp_state& w : warps_) w.barrier_released();
  woken.append(barrier_waiters_);
}

bool block_state::owns_shared(const void* p) const {
  const auto* b = static_cast<const std::byte*>(p);
  return b >= arena_.get() && b < arena_.get() + arena_capacity_;
}

void* block_state::same_place_in(block_state& peer, const void* p) {
  const std::size_t offset = static_cast<std::size_t>(static_cast<const std::byte*>(p) - arena_.get());
  if (offset < grid_->shape().dynamic_shared_bytes) return peer.arena_.get() + offset;  // the same in every block
  for (const slot& s : slots_) {
    if (offset >= s.offset && offset < s.offset + s.site->size) {
      // Static variables get their place at first use, so it may differ between blocks.
      auto* there = static_cast<std::byte*>(peer.shared_slot(*s.site));
      return there == nullptr ? nullptr : there + (offset - s.offset);
    }
  }
  return nullptr;
}

void block_state::retire_shared_memory() { address_check::poison(arena_.get(), arena_used_); }

std::string block_state::describe_shared_address(const void* p) const {
  const std::size_t offset = static_cast<std::size_t>(static_cast<const std::byte*>(p) - arena_.get());
  const std::string owner = fmt::format("in the shared memory of block ({},{},{}){}", block_idx_.x, block_idx_.y,
                                        block_idx_.z, finished ? ", which has finished" : "");
  const std::size_t dynamic = grid_->shape().dynamic_shared_bytes;
  // The nearest variable at or before the address; the dynamic part is first.
  const slot* before = nullptr;
  for (const slot& s : slots_) {
    if (s.offset <= offset && (before == nullptr || s.offset > before->offset)) before = &s;
  }
  if (before == nullptr) {
    return place_in(offset, dynamic, fmt::format("the {}-byte dynamic (extern __shared__) part, {}", dynamic, owner));
  }
  const shared_site& site = *before->site;
  return place_in(offset - before->offset, site.size,
                  fmt::format("__shared__ {} ({}:{}, {} bytes), {}", site.name, site.file, site.line, site.size, owner));
}

std::string block_state::describe_waits() const {
  std::string text;
  for (std::size_t w = 0; w < warps_.size(); ++w) {
    const std::string waits = warps_[w].describe_waits();
    if (!waits.empty()) text += fmt::format("\n  warp {}: {}", w, waits.substr(2));
  }
  if (barrier_arrived_ != 0) {
    text += fmt::format("\n  {} of its {} live threads wait at __syncthreads", barrier_arrived_, thread_count_ - exited_);
    if (barrier_file != nullptr) text += fmt::format(" ({}:{})", barrier_file, barrier_line);
  }
  return text;
}

void* block_state::shared_slot(shared_site& site) {
  const unsigned int id = site_id(site);
  for (const slot& s : slots_) {
    if (s.site_id == id) return arena_.get() + s.offset;
  }
  const std::size_t offset = align_up(arena_used_ + address_check::redzone, std::max(site.align, shared_alignment));
  const std::size_t end = offset + site.size;
  const std::size_t total = grid_->shape().dynamic_shared_bytes + static_bytes_ + site.size;
  if (total > grid_->shared_limit() || end > arena_capacity_) return nullptr;
  arena_used_ = end;
  static_bytes_ += site.size;
  slots_.push_back({&site, id, offset});
  address_check::unpoison(arena_.get() + offset, site.size);
  mark_unwritten(arena_.get() + offset, site.size);
  return arena_.get() + offset;
}

}  // namespace cusim::detail
