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
// waits for ever, as on such a GPU. After CUSIM_WATCHDOG seconds of waiting
// (60; 0: never), it is reported with the lines and the grid ends with
// cudaErrorLaunchTimeout.
//
// On the host the hooks do nothing but the access.
#include <chrono>
#include <map>
#include <unordered_map>
#include <vector>

#include <cusim/detail/builtins.hpp>
#include <cusim/detail/progress.hpp>

#include "sched/block.hpp"
#include "sched/fiber.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"
#include "support/source_lines.hpp"

namespace cusim::detail {

namespace {

constexpr unsigned int lanes = 32;

struct lane_state {
  bool started = false;
  // Basic blocks of a function's epilogue come after its exit hook: the
  // frame its exit hook was called from, while it may still run there.
  const void* exited_frame = nullptr;
  fiber* runs_on = nullptr;
  std::vector<std::uintptr_t> calls;  // call sites of the instrumented functions it is in
  std::vector<std::uint64_t> stack_ids;  // of each prefix of `calls`: equal ids, equal calls
  std::uintptr_t pc = 0;                 // its last basic block or access

  std::uint64_t stack_id() const { return stack_ids.empty() ? 0 : stack_ids.back(); }
  void push(std::uintptr_t call) {
    // A 64-bit mix of the prefix's id and the call: lanes with the same
    // calls have the same id, and (but for a 2^-64 chance) only they do.
    std::uint64_t id = (stack_id() ^ call) * 0x9e3779b97f4a7c15ull;
    id ^= id >> 29;
    calls.push_back(call);
    stack_ids.push_back(id);
  }
  void pop() {
    calls.pop_back();
    stack_ids.pop_back();
  }
};

// Negative when `a` is behind `b` in the program, 0 at the same place.
int compare(const lane_state& a, const lane_state& b) {
  if (a.calls.size() == b.calls.size() && a.stack_id() == b.stack_id()) {  // in the same call: the usual case
    return a.pc == b.pc ? 0 : (a.pc < b.pc ? -1 : 1);
  }
  const std::size_t depth = std::min(a.calls.size(), b.calls.size());
  for (std::size_t i = 0; i < depth; ++i) {
    if (a.calls[i] != b.calls[i]) return a.calls[i] < b.calls[i] ? -1 : 1;
  }
  // One is in a function the other is not: compare the call with the place.
  const std::uintptr_t at_a = a.calls.size() > depth ? a.calls[depth] : a.pc;
  const std::uintptr_t at_b = b.calls.size() > depth ? b.calls[depth] : b.pc;
  if (at_a != at_b) return at_a < at_b ? -1 : 1;
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
    spin_point();
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
  me->pc = reinterpret_cast<std::uintptr_t>(pc);
  spin_point();  // the block's other threads make their next access
  wait_for_lanes_behind(*t, *me);
}

void on_atomic(volatile void* address, void* pc) { on_access(const_cast<void*>(address), 0, true, pc); }

void on_basic_block(void* pc, const void* frame) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr || frame == me->exited_frame) return;
  me->exited_frame = nullptr;
  me->pc = reinterpret_cast<std::uintptr_t>(pc);
  wait_for_lanes_behind(*t, *me);
}

void on_function_entry(void* call_site) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr) return;
  me->push(reinterpret_cast<std::uintptr_t>(call_site));
  me->pc = 0;  // the function's start; its first basic block's hook follows
  me->exited_frame = nullptr;
}

void on_function_exit(const void* frame) {
  const thread_context* t;
  lane_state* me = running_lane(t);
  if (me == nullptr) return;
  if (!me->calls.empty()) {
    // Back in the caller, just after the call: there, as far as the caller's
    // next basic block (or access) is concerned.
    me->pc = me->calls.back();
    me->pop();
  }
  me->exited_frame = frame;
}

}  // namespace

}  // namespace cusim::detail

#include "support/instrumentation_hooks.inc"
