// The warps of one block: 32 lanes each, formed from the linear thread id, the
// last one partial when the block size is not a multiple of 32 (the lanes past
// the end do not exist). A warp tracks the collectives its lanes wait at, and
// which of its lanes have exited or wait at the block's barrier, to decide
// when a collective completes and which lanes reach an __activemask together.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cusim/detail/warp_api.hpp>

#include "sched/fiber.hpp"

namespace cusim::detail {

class block_state;

constexpr unsigned int lanes_per_warp = 32;

// Kinds of collective, and the rules a call must keep (the worker checks
// them, worker_warps.cpp).
constexpr bool is_shuffle(warp_op op) { return op >= warp_op::shfl_idx && op <= warp_op::shfl_xor; }
constexpr bool is_reduction(warp_op op) { return op >= warp_op::reduce_add && op <= warp_op::reduce_xor; }
constexpr bool names_lane(const warp_call& call, unsigned int lane) { return (call.mask >> lane & 1u) != 0; }
// A shuffle's segment width: a power of two from 1 to 32.
constexpr bool is_shuffle_width(unsigned int width) {
  return width - 1 < lanes_per_warp && (width & (width - 1)) == 0;
}

// One pending collective: the lanes that have arrived and their operands.
struct warp_group {
  // The per-lane arrays are written as lanes arrive and read only for lanes
  // that have: left uninitialised, a new group costs no 800-byte clearing.
  warp_group() {}  // NOLINT(modernize-use-equals-default): `= default` would zero the arrays
  warp_op op{};
  unsigned int mask = 0;
  unsigned int arrived = 0;
  const char* file = nullptr;  // where its first lane called it
  unsigned int line = 0;
  std::array<std::uint64_t, lanes_per_warp> values;
  std::array<unsigned int, lanes_per_warp> operands;
  std::array<unsigned int, lanes_per_warp> widths;
  std::array<fiber*, lanes_per_warp> fibers;
  // Lanes its mask names that a collective at the same call waits for with
  // another mask (`other_mask`): should one of them exit without joining
  // this one, the lanes disagreed on the mask (warp_state::disagreement).
  unsigned int disputed = 0;
  unsigned int other_mask = 0;
  const void* race_token = nullptr;  // race checking (sched/race_check.hpp)
  std::int64_t started = 0;          // the timeline trace: the first lane's arrival
};

// "0-15,17,20-21"
std::string describe_lanes(unsigned int lanes);

class warp_state {
 public:
  // `present`: the lanes that exist (all 32 but in a partial last warp);
  // the warp is number `index` of `block`.
  void reset(unsigned int present, const block_state& block, unsigned int index);

  unsigned int present() const { return present_; }
  // The lanes that exist and have not exited.
  unsigned int live() const { return present_ & ~exited_; }

  enum class arrival { waiting, completed, mismatch };
  // Lane `lane`, running on `self`, calls `call` (already validated: its mask
  // names the lane). Completed groups' fibers (self too, if its own group
  // completed) go to `woken` in lane order, results stored in each fiber.
  // `mismatch`: the lane was expected at another collective; `expected`
  // describes that one.
  arrival arrive(fiber& self, unsigned int lane, const warp_call& call, fiber_queue& woken, std::string& expected);
  // The usual arrival, decided without arrive()'s searches: no collective
  // pending, or only one of the same intrinsic and mask (so no __activemask
  // waits and no other mask's collective can be completed by it). Returns
  // false, having changed nothing, when arrive() must decide; otherwise as
  // arrive() (`completed`: the lane's own collective completed).
  bool arrive_usual(fiber& self, unsigned int lane, const warp_call& call, fiber_queue& woken, bool& completed) {
    if (call.op == warp_op::active_mask) return false;
    warp_group* group = groups_.empty() ? &open_group(call) : only_group_for(call);
    if (group == nullptr) return false;
    join(*group, self, lane, call);
    completed = ready(*group);
    if (completed) complete(0, woken);
    return true;
  }

  // The most frequent arrival of all: a valid call joining the warp's only
  // pending collective, of its intrinsic and mask, without completing it.
  // (What the call's intrinsic needs, such as a reduction's compute
  // capability, was checked when the collective opened; its mask must name
  // the lane, and a shuffle's width is each lane's own.) True when it
  // joined (the lane then waits); false, having changed nothing, for
  // arrive_usual() or arrive() to decide.
  bool join_pending(fiber& self, unsigned int lane, const warp_call& call) {
    warp_group* group = only_group_for(call);
    if (group == nullptr || call.op == warp_op::active_mask) return false;
    if (!names_lane(call, lane) || (is_shuffle(call.op) && !is_shuffle_width(call.width))) return false;
    if ((group->mask & present_ & ~exited_ & ~(group->arrived | 1u << lane)) == 0) return false;  // it would complete
    join(*group, self, lane, call);
    return true;
  }

  // A lane exited (exited lanes do not hold a collective), or parked at the
  // block's barrier; either may complete what waited for it.
  // With no collective pending (the usual case: a kernel without warp
  // operations) an exit is one bit.
  void lanes_exited(unsigned int lanes, fiber_queue& woken) {
    exited_ |= lanes;
    if (!groups_.empty()) complete_ready_groups(woken);
  }
  void lane_waits_at_barrier(unsigned int lane, fiber_queue& woken) {
    at_barrier_ |= 1u << lane;
    if (!groups_.empty()) complete_ready_groups(woken);  // an __activemask may wait for the warp to settle
  }
  void barrier_released() { at_barrier_ = 0; }

  // Collectives completed since reset (not __activemask), for the kernel report.
  unsigned long long completed_collectives() const { return completed_; }

  // Something for the worker to report since it last asked: lanes that read
  // from lanes that did not take part, or a disagreement (below).
  bool has_news() const { return (unread_ | disagreement_.lanes) != 0; }
  unsigned int take_unread(const char*& file, unsigned int& line, warp_op& op);

  // Lanes that called one intrinsic at one call with masks that overlap
  // and differ (`masks_disagree` in tests/semantics/warp/warp_errors.cu). At
  // the call nothing tells it from lanes that are one pass of a loop ahead
  // and called it with that pass's mask, which is legal (the lanes of the
  // earlier pass join theirs later); so both collectives wait, and the
  // disagreement shows when one completes without lanes its mask names
  // that had called the other: they exited instead.
  struct disagreement {
    unsigned int lanes = 0;  // the lanes that called with other_mask and exited
    warp_op op{};
    const char* file = nullptr;
    unsigned int line = 0;
    unsigned int mask = 0, other_mask = 0, arrived = 0;
  };
  disagreement take_disagreement() { return std::exchange(disagreement_, {}); }

  // The pending collectives, for a report of a block that cannot go on.
  std::string describe_waits() const;

 private:
  // The warp's only pending collective, if it is of `call`'s intrinsic and
  // mask; otherwise null (none pending, several, or another).
  warp_group* only_group_for(const warp_call& call) {
    if (groups_.size() != 1) return nullptr;
    warp_group& group = groups_.front();
    return group.mask == call.mask && group.op == call.op ? &group : nullptr;
  }
  bool ready(const warp_group& group) const { return (group.mask & present_ & ~exited_ & ~group.arrived) == 0; }
  bool quiescent() const;
  warp_group& open_group(const warp_call& call);
  static void join(warp_group& group, fiber& self, unsigned int lane, const warp_call& call) {
    self.race_token = group.race_token;
    group.arrived |= 1u << lane;
    group.values[lane] = call.value;
    group.operands[lane] = call.operand;
    group.widths[lane] = call.width;
    group.fibers[lane] = &self;
  }
  void complete(std::size_t index, fiber_queue& woken);
  void complete_ready_groups(fiber_queue& woken);

  unsigned int present_ = 0;
  unsigned int exited_ = 0;
  unsigned int at_barrier_ = 0;
  std::vector<warp_group> groups_;  // pending, oldest first
  unsigned int unread_ = 0;
  unsigned long long completed_ = 0;
  const block_state* block_ = nullptr;
  unsigned int index_ = 0;
  const char* unread_file_ = nullptr;
  unsigned int unread_line_ = 0;
  warp_op unread_op_{};
  disagreement disagreement_;
};

}  // namespace cusim::detail
