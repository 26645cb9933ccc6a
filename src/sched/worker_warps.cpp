// The worker's warp collectives (shuffles, votes, match, reductions,
// __activemask): checking a lane's call, its arrival at the warp's pending
// collective (sched/warp.hpp computes the results), and waking the lanes.
#include <string>

#include <cusim/profile.hpp>
#include <fmt/format.h>

#include "sched/race_check.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

warp_result worker::arrive_and_wait(fiber& self, block_state& block, const warp_call& call) {
  {
    race::runtime_scope bookkeeping;
    const unsigned int tid = self.thread.linear_tid;
    warp_state& warp = block.warp_of(tid);
    fiber_queue woken;
    bool completed = false;
    // The usual call (a valid shuffle, vote, match or __syncwarp joining its
    // warp's only pending collective) takes none of the general path's
    // searches and strings.
    if (!is_usual_warp_call(call, tid % lanes_per_warp) ||
        !warp.arrive_usual(self, tid % lanes_per_warp, call, woken, completed)) {
      // The checks and the arrival keep their strings in functions of their
      // own: abandon_thread() drops this frame without unwinding it.
      if (!warp_call_is_valid(call)) abandon_thread();
      const auto arrival = arrive_at_warp_collective(call, woken);
      if (arrival == warp_state::arrival::mismatch) abandon_thread();
      completed = arrival == warp_state::arrival::completed;
    }
    if (warp.has_news() && report_warp_news(block, tid)) abandon_thread();
    if (completed) {
      wake_warp(woken);
    } else {
      ready_.append(woken);
      if (block.needs_starter()) start_fiber_for(block, /*run_next=*/false);
    }
  }
  wait_at_token(self);
  return self.warp_outcome;
}

// The lanes of a completed collective run next, back to back, so that a
// warp goes from collective to collective while its 32 stacks are in the
// cache (taking turns with the block's other warps at every collective
// costs a cache miss per lane). Every 64th time in a row they queue behind
// the rest instead: a warp that spins on a flag another warp sets (with
// collectives but no atomic) still lets that warp run.
void worker::wake_warp(fiber_queue& lanes) {
  constexpr unsigned int turns_before_yielding = 64;
  if (scheduled_ || ++warp_turns_ == turns_before_yielding) {
    warp_turns_ = 0;
    ready_.append(lanes);
  } else {
    ready_.prepend(lanes);
  }
}

bool worker::warp_call_is_valid(const warp_call& call) {
  const unsigned int lane = running_->thread.linear_tid % lanes_per_warp;
  if (call.op != warp_op::active_mask && !names_lane(call, lane)) {
    fail_warp_call(call, fmt::format("its mask {:#010x} does not name the calling lane {}; every lane that calls a "
                                     "*_sync intrinsic must be in its mask",
                                     call.mask, lane));
    return false;
  }
  if (is_shuffle(call.op) && !is_shuffle_width(call.width)) {
    fail_warp_call(call, fmt::format("its width {} is not a power of two from 1 to 32", call.width));
    return false;
  }
  if (is_reduction(call.op) && active_profile().major < 8) {
    fail_warp_call(call, fmt::format("{} needs compute capability 8.0 or later, and the device modelled ({}) is {}.{}",
                                     warp_op_name(call.op), active_profile().name, active_profile().major,
                                     active_profile().minor));
    return false;
  }
  return true;
}

warp_state::arrival worker::arrive_at_warp_collective(const warp_call& call, fiber_queue& woken) {
  fiber& self = *running_;
  const unsigned int tid = self.thread.linear_tid;
  std::string expected;
  const auto arrival = self.thread.block->warp_of(tid).arrive(self, tid % lanes_per_warp, call, woken, expected);
  if (arrival == warp_state::arrival::mismatch) {
    fail_warp_call(call, fmt::format("the lane was expected at {}: every lane named in a mask must call the same "
                                     "intrinsic with the same mask",
                                     expected));
  }
  return arrival;
}

void worker::fail_warp_call(const warp_call& call, const std::string& problem) {
  const thread_context& t = running_->thread;
  const uint3 index = thread_index_of(t);
  report("kernel {}: block ({},{},{}), thread ({},{},{}) (warp {}, lane {}): {} at {}:{}: {}. The grid stops "
         "(cudaErrorLaunchFailure).",
         t.block->grid().kernel_name(), t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x, index.y,
         index.z, t.linear_tid / lanes_per_warp, t.linear_tid % lanes_per_warp, warp_op_name(call.op),
         call.file, call.line, problem);
  note_schedule_for_replay();
  t.block->grid().abort(cudaErrorLaunchFailure);
}

// What a warp's collectives found for reports (warp_state::has_news): true
// when it failed the grid.
bool worker::report_warp_news(block_state& block, unsigned int linear_tid) {
  warp_state& warp = block.warp_of(linear_tid);
  const uint3 b = block.block_idx();
  const char* file = nullptr;
  unsigned int line = 0;
  warp_op op{};
  const unsigned int unread = warp.take_unread(file, line, op);
  if (unread != 0 && block.grid().first_report_at(file, line)) {
    report("kernel {}: block ({},{},{}), warp {}: {} at {}:{} read lanes {}, which did not take part (exited, not in "
           "the mask, or past the end of a partial warp). CUDA leaves what they read undefined; cusim gave each "
           "reading lane its own value. (Reported once per call site and launch.)",
           block.grid().kernel_name(), b.x, b.y, b.z, linear_tid / lanes_per_warp, warp_op_name(op), file, line,
           describe_lanes(unread));
  }
  const warp_state::disagreement d = warp.take_disagreement();
  if (d.lanes == 0) return false;
  report("kernel {}: block ({},{},{}), warp {}: lanes {} called {} at {}:{} with mask {:#010x}, which names lanes "
         "{}, but those called it with mask {:#010x} instead and exited: every lane named in a mask must call the same "
         "intrinsic with the same mask. The grid stops (cudaErrorLaunchFailure).",
         block.grid().kernel_name(), b.x, b.y, b.z, linear_tid / lanes_per_warp, describe_lanes(d.arrived),
         warp_op_name(d.op), d.file, d.line, d.mask, describe_lanes(d.lanes), d.other_mask);
  note_schedule_for_replay();
  block.grid().abort(cudaErrorLaunchFailure);
  return true;
}

}  // namespace cusim::detail
