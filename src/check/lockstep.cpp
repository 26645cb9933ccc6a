// Lockstep warps (cusim-cc --warp-mode=lockstep): the program is compiled
// unoptimised with ThreadSanitizer's instrumentation, which calls a hook
// before every memory access and atomic and at every function's entry and
// exit, and with -fsanitize-coverage=trace-pc, which calls one at the start
// of every basic block; it is linked with these hooks instead of TSan's
// runtime.
//
// In a kernel each access is a spin point: the thread steps aside and the
// block's other runnable threads each make their next access before it
// makes its own, as the lanes of a pre-Volta warp advance one instruction
// at a time. Lanes of one warp that have diverged run one path at a time:
// a lane goes on only when no runnable lane of its warp is behind it in the
// program (min-PC reconvergence: its position is the call sites of the
// instrumented functions it is in, then its basic block or access; the
// lowest runs first; unoptimised code keeps the source's layout, in which
// that approximates reconvergence where the paths meet). Lanes that skipped
// ahead wait for the others to catch up, as at a pre-Volta warp's
// reconvergence point; so a lane that waits for another lane of its own
// warp that is ahead of it (a spin lock held by a lane that left the loop)
// waits for ever, as on such a GPU. A loop's back edge goes to a lower
// place: of two lanes in a loop, the one that has been round it fewer times
// is behind, wherever it is in the loop. After CUSIM_WATCHDOG seconds of waiting
// (60; 0: never), it is reported with the lines and the grid ends with
// cudaErrorLaunchTimeout.
//
// On the host the hooks do nothing but the access.
#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>
#include <vector>

#include <cusim/detail/builtins.hpp>
#include <cusim/detail/progress.hpp>

#include "runtime/errors.hpp"
#include "sched/block.hpp"
#include "sched/fiber.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"
#include "support/source_lines.hpp"

namespace cusim::detail {

// A checked program hears of each error a CUDA call returns (runtime/errors.hpp).
[[maybe_unused]] const bool errors_reported = (report_errors_by_default(), true);

namespace {

constexpr unsigned int lanes = 32;

// A loop a lane goes round in one function's frame, known by its back
// edge: it jumped back to `head` from places up to `back_from`, `laps`
// times since it came into the loop.
struct loop_laps {
  std::uintptr_t head = 0;
  std::uintptr_t back_from = 0;
  std::uint64_t laps = 0;
  bool holds(std::uintptr_t place) const { return head <= place && place <= back_from; }
};

struct lane_state {
  bool started = false;
  // Basic blocks of a function's epilogue come after its exit hook: the
  // frame its exit hook was called from, while it may still run there.
  const void* exited_frame = nullptr;
  fiber* runs_on = nullptr;
  std::vector<std::uintptr_t> calls;  // call sites of the instrumented functions it is in
  // Per frame (the one outside every call first): the loops it is in there.
  std::vector<std::vector<loop_laps>> loops = std::vector<std::vector<loop_laps>>(1);
  // Of each prefix of `calls` with the laps of the frames it leaves: lanes
  // with equal ids are in the same call of the same laps (but for a 2^-64
  // chance).
  std::vector<std::uint64_t> stack_ids;
  // stack_id() with the laps of the current frame: lanes with equal ids
  // differ only in their place in the current function.
  std::uint64_t laps_id = 0;
  std::uintptr_t pc = 0;  // its last basic block or access

  std::uint64_t stack_id() const { return stack_ids.empty() ? 0 : stack_ids.back(); }
  void push(std::uintptr_t call) {
    stack_ids.push_back(mix(laps_id ^ call));
    calls.push_back(call);
    loops.emplace_back();
    laps_id = stack_id();
    pc = 0;  // the function's start; its first basic block's hook follows
  }
  void pop() {
    // Back in the caller, just after the call: there, as far as the caller's
    // next basic block (or access) is concerned.
    pc = calls.back();
    calls.pop_back();
    loops.pop_back();
    stack_ids.pop_back();
    count_laps();
  }
  void count_laps() {
    laps_id = stack_id();
    for (const loop_laps& loop : loops.back()) laps_id = mix(mix(laps_id ^ loop.head) ^ loop.laps);
  }
  static std::uint64_t mix(std::uint64_t id) {
    id *= 0x9e3779b97f4a7c15ull;
    return id ^ (id >> 29);
  }
  // A move in the current function. A lower place is a jump back (unoptimised
  // code keeps the source's layout): a loop's next lap. A place outside a
  // loop has left it; coming back in starts again from no laps. Returns
  // whether it jumped back.
  bool move_to(std::uintptr_t next) {
    std::vector<loop_laps>& here = loops.back();
    const bool jumps_back = next < pc;
    if (jumps_back) {
      auto loop = std::find_if(here.begin(), here.end(), [&](const loop_laps& l) { return l.head == next; });
      if (loop == here.end()) loop = here.insert(here.end(), {next, pc, 0});
      loop->back_from = std::max(loop->back_from, pc);
      ++loop->laps;
    }
    pc = next;
    const auto left = std::remove_if(here.begin(), here.end(), [&](const loop_laps& l) { return !l.holds(next); });
    if (jumps_back || left != here.end()) {
      here.erase(left, here.end());
      count_laps();
    }
    return jumps_back;
  }
};

// Between two lanes at `at_a` and `at_b` in one frame: negative when `a` has
// been round a loop that holds both fewer times (the outermost loop whose
// laps differ decides), 0 when no such loop's laps differ.
int compare_laps(const std::vector<loop_laps>& a, const std::vector<loop_laps>& b, std::uintptr_t at_a,
                 std::uintptr_t at_b) {
  if (a.empty() && b.empty()) return 0;
  int order = 0;
  std::uintptr_t widest = 0;
  auto laps_of = [](const std::vector<loop_laps>& loops, std::uintptr_t head) -> const loop_laps* {
    auto found = std::find_if(loops.begin(), loops.end(), [&](const loop_laps& l) { return l.head == head; });
    return found == loops.end() ? nullptr : &*found;
  };
  auto consider = [&](const loop_laps& loop) {
    const loop_laps* in_a = laps_of(a, loop.head);
    const loop_laps* in_b = laps_of(b, loop.head);
    const loop_laps whole{loop.head, std::max(in_a ? in_a->back_from : 0, in_b ? in_b->back_from : 0), 0};
    const std::uint64_t laps_a = in_a ? in_a->laps : 0;
    const std::uint64_t laps_b = in_b ? in_b->laps : 0;
    if (laps_a == laps_b || !whole.holds(at_a) || !whole.holds(at_b)) return;
    if (whole.back_from - whole.head >= widest) {
      widest = whole.back_from - whole.head;
      order = laps_a < laps_b ? -1 : 1;
    }
  };
  for (const loop_laps& loop : a) consider(loop);
  for (const loop_laps& loop : b) consider(loop);
  return order;
}

// Negative when `a` is behind `b` in the program, 0 at the same place: in
// each frame they share, by their laps of the loops they are both in, then
// by place.
int compare(const lane_state& a, const lane_state& b) {
  if (a.calls.size() == b.calls.size() && a.laps_id == b.laps_id) {  // in the same call and lap: the usual case
    return a.pc == b.pc ? 0 : (a.pc < b.pc ? -1 : 1);
  }
  const std::size_t depth = std::min(a.calls.size(), b.calls.size());
  for (std::size_t frame = 0; frame <= depth; ++frame) {
    // In a function the other is not in, the place is the call's.
    const std::uintptr_t at_a = a.calls.size() > frame ? a.calls[frame] : a.pc;
    const std::uintptr_t at_b = b.calls.size() > frame ? b.calls[frame] : b.pc;
    if (const int by_laps = compare_laps(a.loops[frame], b.loops[frame], at_a, at_b)) return by_laps;
    if (at_a != at_b) return at_a < at_b ? -1 : 1;
  }
  // A place equal to a call's return address: the one there has returned
  // from the call the other is still in.
  return a.calls.size() == b.calls.size() ? 0 : (a.calls.size() < b.calls.size() ? 1 : -1);
}

struct block_lanes {
  std::uint64_t serial = 0;
  std::vector<lane_state> by_thread;
  // Per warp, bumped whenever one of its lanes moves: a lane that waits
  // looks again only when something changed.
  std::vector<std::uint64_t> moves;
};

// Per worker thread: the lanes of its resident blocks (the last one used
// remembered: consecutive hooks are mostly of one block).
thread_local std::unordered_map<const block_state*, block_lanes> blocks;
thread_local const block_state* last_block = nullptr;
thread_local block_lanes* last_lanes = nullptr;

block_lanes& lanes_of(const block_state* block) {
  if (block != last_block) {
    last_block = block;
    last_lanes = &blocks[block];
  }
  block_lanes& b = *last_lanes;
  if (b.serial != block->serial()) {
    b.serial = block->serial();
    b.by_thread.assign(block->thread_count(), {});
    b.moves.assign((block->thread_count() + lanes - 1) / lanes, 0);
  }
  return b;
}

// The running thread's record, which is about to move.
lane_state& lane_of(const thread_context& t) {
  block_lanes& b = lanes_of(t.block);
  ++b.moves[t.linear_tid / lanes];
  return b.by_thread[t.linear_tid];
}

// The lanes of the running thread's warp that can run and are behind it:
// not started yet, or stepped aside at a spin point at an earlier place.
// (Lanes that exited, or wait at a barrier or a collective, do not count;
// nor do lanes just woken from one, until they next step aside.) Only the
// lanes in `candidates` are looked at.
unsigned int lanes_behind(const thread_context& t, const lane_state& me, unsigned int candidates) {
  const block_state& block = *t.block;
  const unsigned int first = t.linear_tid / lanes * lanes;
  const unsigned int live = block.warp_of(t.linear_tid).live();
  const std::vector<lane_state>& warp = lanes_of(t.block).by_thread;
  unsigned int behind = 0;
  for (unsigned int lane = 0; lane < lanes; ++lane) {
    const unsigned int tid = first + lane;
    if (tid == t.linear_tid || ((live & candidates) >> lane & 1u) == 0) continue;
    const lane_state& other = warp[tid];
    if (!other.started ||
        (other.runs_on->spinning && other.runs_on->thread.linear_tid == tid && compare(other, me) < 0)) {
      behind |= 1u << lane;
    }
  }
  return behind;
}

// The other started lanes of the running thread's warp that have not
// stepped aside at a spin point (woken from a barrier, or waiting at one).
unsigned int lanes_not_stepped_aside(const thread_context& t) {
  const unsigned int first = t.linear_tid / lanes * lanes;
  const unsigned int live = t.block->warp_of(t.linear_tid).live();
  const std::vector<lane_state>& warp = lanes_of(t.block).by_thread;
  unsigned int found = 0;
  for (unsigned int lane = 0; lane < lanes; ++lane) {
    const unsigned int tid = first + lane;
    if (tid == t.linear_tid || ((live >> lane) & 1u) == 0 || !warp[tid].started) continue;
    if (!warp[tid].runs_on->spinning || warp[tid].runs_on->thread.linear_tid != tid) found |= 1u << lane;
  }
  return found;
}

// The watchdog's delay (sched/watchdog.hpp): a GPU's display watchdog too
// stops a kernel that runs too long, hung or not.
std::chrono::milliseconds hang_limit() {
  using std::chrono::seconds;
  static const std::chrono::milliseconds limit = watchdog_setting(seconds(60));
  return limit;
}

// Where a lane is, as a line of the program's own code: its innermost frame
// outside cusim's headers and the standard library's (an atomicCAS is
// reported at its call, a kernel's end at the launch machinery's call).
std::string where(const lane_state& lane) {
  std::vector<const void*> frames;
  for (std::uintptr_t call : lane.calls) frames.push_back(reinterpret_cast<const void*>(call));
  if (lane.pc != 0) frames.push_back(reinterpret_cast<const void*>(lane.pc));
  const auto lines = source_lines(frames);
  for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
    const std::string& line = lines.at(*frame);
    const bool not_the_program = line.find("/cusim/detail/") != std::string::npos ||
                                 line.find("/include/cuda/") != std::string::npos ||
                                 line.find("/cusim-cuda/") != std::string::npos ||
                                 line.find("/include/c++/") != std::string::npos ||
                                 line.find("/src/sched/") != std::string::npos;
    if (!not_the_program) return line;
  }
  return "the kernel's end";
}

// The warp's lanes by where they are, the ones that keep running first.
std::string describe_warp(const thread_context& t, unsigned int running) {
  const std::vector<lane_state>& warp = lanes_of(t.block).by_thread;
  const unsigned int first = t.linear_tid / lanes * lanes;
  const unsigned int live = t.block->warp_of(t.linear_tid).live();
  std::map<std::string, unsigned int> waiting;  // place -> lanes
  for (unsigned int lane = 0; lane < lanes; ++lane) {
    if (((live >> lane) & 1u) == 0 || ((running >> lane) & 1u) != 0 || !warp[first + lane].started) continue;
    waiting[where(warp[first + lane])] |= 1u << lane;
  }
  unsigned int one = 0;
  while (((running >> one) & 1u) == 0) ++one;
  std::string text = fmt::format("lanes {} keep running at {}, while ", describe_lanes(running), where(warp[first + one]));
  bool more = false;
  for (const auto& [place, which] : waiting) {
    text += fmt::format("{}lanes {} wait at {}", more ? ", " : "", describe_lanes(which), place);
    more = true;
  }
  return text + " for them to catch up";
}

[[noreturn]] void report_hang(const thread_context& t, const lane_state& me, unsigned int behind,
                              std::chrono::steady_clock::duration waited) {
  // The lanes that keep running: those behind, and behind them, none.
  unsigned int running = behind;
  const std::vector<lane_state>& warp = lanes_of(t.block).by_thread;
  const unsigned int first = t.linear_tid / lanes * lanes;
  for (unsigned int lane = 0; lane < lanes; ++lane) {
    if (((behind >> lane) & 1u) == 0 || !warp[first + lane].started) continue;
    for (unsigned int other = 0; other < lanes; ++other) {
      if (((behind >> other) & 1u) && warp[first + other].started &&
          compare(warp[first + other], warp[first + lane]) < 0) {
        running &= ~(1u << lane);
        break;
      }
    }
  }
  (void)me;
  worker& w = *worker::current();
  w.fail_grid(fmt::format(
                  "in warp {}, lanes have waited {} for others: {}. In lockstep warp mode, as on a GPU without "
                  "independent thread scheduling (before Volta), a warp runs one path at a time and the lanes ahead "
                  "wait where the paths meet: lanes that wait for a lane of their warp that is ahead of them (for a "
                  "lock it took before it left the loop, for a flag it sets further on) wait for ever. With "
                  "independent thread scheduling (sm_70 and later, cusim's default warp mode) lanes of a warp need "
                  "not wait for one another.",
                  t.linear_tid / lanes, seconds_text(waited), describe_warp(t, running)),
              cudaErrorLaunchTimeout);
  w.abandon_thread();
}

// The running lane waits while lanes of its warp are behind it.
void wait_for_lanes_behind(const thread_context& t, lane_state& me) {
  unsigned int behind = lanes_behind(t, me, ~0u);
  if (behind == 0) return;
  // While it waits, the lanes ahead of it wait too, and only those behind
  // move: they are the ones to look at (and, now and then, every lane: a
  // lane woken from a barrier may join them), when one of them moved.
  const std::uint64_t& moves = lanes_of(t.block).moves[t.linear_tid / lanes];
  std::uint64_t seen = moves;
  const auto since = std::chrono::steady_clock::now();
  for (unsigned int round = 1; behind != 0; ++round) {
    spin_point(/*polling=*/false);
    if (round % 64 == 0) {
      behind = lanes_behind(t, me, ~0u);
      const auto waited = std::chrono::steady_clock::now() - since;
      if (behind != 0 && hang_limit().count() > 0 && waited >= hang_limit()) report_hang(t, me, behind, waited);
    } else if (moves != seen) {
      seen = moves;
      behind = lanes_behind(t, me, behind);
    }
  }
}

// The running lane, if in a kernel, and its record.
lane_state* running_lane(const thread_context*& t) {
  t = current_thread;
  if (t == nullptr || t->block == nullptr) return nullptr;
  lane_state& lane = lane_of(*t);
  lane.started = true;
  lane.runs_on = t->self;
  return &lane;
}

void on_access(void* address, unsigned int, bool, void* pc) {
  const thread_context* t = current_thread;
  // A thread's own locals (unoptimised code keeps them in memory) are not
  // seen by other lanes: no reason to step aside for them.
  if (t != nullptr && t->self != nullptr && t->self->stack_holds(address)) return;
  lane_state* me = running_lane(t);
  if (me == nullptr) return;
  me->move_to(reinterpret_cast<std::uintptr_t>(pc));
  spin_point(/*polling=*/false);  // the block's other threads make their next access
  wait_for_lanes_behind(*t, *me);
}

void on_atomic(volatile void* address, unsigned int, bool, void* pc) {
  on_access(const_cast<void*>(address), 0, true, pc);
}

void on_basic_block(void* pc, const void* frame) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr || frame == me->exited_frame) return;
  me->exited_frame = nullptr;
  const bool jumps_back = me->move_to(reinterpret_cast<std::uintptr_t>(pc));
  // Lanes just woken from a barrier at a loop's end have not stepped aside
  // yet, so they do not count as behind: let them come up to the loop's
  // end, as an access would, before looking.
  if (jumps_back && lanes_not_stepped_aside(*t) != 0) spin_point(/*polling=*/false);
  wait_for_lanes_behind(*t, *me);
}

void on_function_entry(void* call_site) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr) return;
  me->push(reinterpret_cast<std::uintptr_t>(call_site));
  me->exited_frame = nullptr;
}

void on_function_exit(const void* frame) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr) return;
  if (!me->calls.empty()) me->pop();
  me->exited_frame = frame;
}

}  // namespace

}  // namespace cusim::detail

#include "support/instrumentation_hooks.inc"
