#include "sched/warp.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "sched/block.hpp"
#include "sched/fiber.hpp"
#include "sched/race_check.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

const char* warp_op_name(warp_op op) {
  switch (op) {
    case warp_op::sync: return "__syncwarp";
    case warp_op::shfl_idx: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::vote_all: return "__all_sync";
    case warp_op::vote_any: return "__any_sync";
    case warp_op::ballot: return "__ballot_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::match_all: return "__match_all_sync";
    case warp_op::reduce_add: return "__reduce_add_sync";
    case warp_op::reduce_min_unsigned:
    case warp_op::reduce_min_signed: return "__reduce_min_sync";
    case warp_op::reduce_max_unsigned:
    case warp_op::reduce_max_signed: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
    case warp_op::active_mask: return "__activemask";
  }
  return "a warp collective";
}

namespace {

unsigned int bit(unsigned int lane) { return 1u << lane; }

// The lane a shuffle reads for `lane`, or `lane` itself where PTX's shfl.sync
// clamps (the source is outside the lane's segment of `width` lanes).
unsigned int shuffle_source(warp_op op, unsigned int lane, unsigned int operand, unsigned int width) {
  const unsigned int first = lane & ~(width - 1);  // the segment's lanes: [first, last]
  const unsigned int last = first | (width - 1);
  const unsigned int b = operand & 31u;
  switch (op) {
    case warp_op::shfl_idx: return first | (operand & (width - 1));
    case warp_op::shfl_up: return lane >= first + b ? lane - b : lane;
    case warp_op::shfl_down: return lane + b <= last ? lane + b : lane;
    case warp_op::shfl_xor: return (lane ^ b) <= last ? lane ^ b : lane;  // earlier segments may be read
    default: return lane;
  }
}

std::uint32_t low32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }

// A reduction over the arrived lanes' 32-bit values.
std::uint32_t reduce(const warp_group& g) {
  std::uint32_t acc = 0;
  bool first = true;
  for (unsigned int lane = 0; lane < lanes_per_warp; ++lane) {
    if ((g.arrived & bit(lane)) == 0) continue;
    const std::uint32_t v = low32(g.values[lane]);
    if (first) {
      acc = v;
      first = false;
      continue;
    }
    switch (g.op) {
      case warp_op::reduce_add: acc += v; break;
      case warp_op::reduce_min_unsigned: acc = std::min(acc, v); break;
      case warp_op::reduce_max_unsigned: acc = std::max(acc, v); break;
      case warp_op::reduce_min_signed:
        acc = static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
        break;
      case warp_op::reduce_max_signed:
        acc = static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
        break;
      case warp_op::reduce_and: acc &= v; break;
      case warp_op::reduce_or: acc |= v; break;
      case warp_op::reduce_xor: acc ^= v; break;
      default: break;
    }
  }
  return acc;
}

}  // namespace

namespace {

// Shuffles, the most frequent collectives: the operation's rule chosen once
// for the warp, each arrived lane visited once.
template <warp_op Op, class Deliver>
void shuffle_results(const warp_group& g, unsigned int& unread, Deliver deliver) {
  if (g.arrived == ~0u) {  // the usual full warp: every lane read took part
    for (unsigned int lane = 0; lane < lanes_per_warp; ++lane) {
      deliver(lane, warp_result{g.values[shuffle_source(Op, lane, g.operands[lane], g.widths[lane])], 0, false});
    }
    return;
  }
  for (unsigned int lanes = g.arrived; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned int>(std::countr_zero(lanes));
    const unsigned int source = shuffle_source(Op, lane, g.operands[lane], g.widths[lane]);
    const bool read = (g.arrived & bit(source)) != 0;
    deliver(lane, warp_result{read ? g.values[source] : g.values[lane], 0, false});
    if (!read) unread |= bit(source);
  }
}

// Votes, match, reductions, __syncwarp and __activemask.
template <class Deliver>
void other_results(const warp_group& g, Deliver deliver) {
  unsigned int true_lanes = 0;
  bool all_equal = true;
  const int first_lane = std::countr_zero(g.arrived);
  for (unsigned int lane = 0; lane < lanes_per_warp; ++lane) {
    if ((g.arrived & bit(lane)) == 0) continue;
    if (g.values[lane] != 0) true_lanes |= bit(lane);
    if (g.values[lane] != g.values[first_lane]) all_equal = false;
  }
  const std::uint32_t reduced = is_reduction(g.op) ? reduce(g) : 0;
  for (unsigned int lane = 0; lane < lanes_per_warp; ++lane) {
    if ((g.arrived & bit(lane)) == 0) continue;
    warp_result r{0, 0, false};
    switch (g.op) {
      case warp_op::vote_all: r.value = true_lanes == g.arrived; break;
      case warp_op::vote_any: r.value = true_lanes != 0; break;
      case warp_op::ballot: r.lanes = true_lanes; break;
      case warp_op::match_any:
        for (unsigned int other = 0; other < lanes_per_warp; ++other) {
          if ((g.arrived & bit(other)) != 0 && g.values[other] == g.values[lane]) r.lanes |= bit(other);
        }
        break;
      case warp_op::match_all:
        r.lanes = all_equal ? g.arrived : 0;
        r.predicate = all_equal;
        break;
      case warp_op::active_mask: r.lanes = g.arrived; break;
      case warp_op::sync: break;
      default: r.value = reduced; break;
    }
    deliver(lane, r);
  }
}

// Each arrived lane's result, by CUDA's rules (PTX shfl.sync, vote.sync,
// match.sync, redux.sync), handed to `deliver(lane, result)` in lane order.
// A shuffle that reads a lane that did not take part gets its own value,
// and `unread` collects the lanes read that way (CUDA leaves the value
// undefined; the caller reports it).
template <class Deliver>
void warp_results(const warp_group& g, unsigned int& unread, Deliver deliver) {
  switch (g.op) {
    case warp_op::shfl_idx: return shuffle_results<warp_op::shfl_idx>(g, unread, deliver);
    case warp_op::shfl_up: return shuffle_results<warp_op::shfl_up>(g, unread, deliver);
    case warp_op::shfl_down: return shuffle_results<warp_op::shfl_down>(g, unread, deliver);
    case warp_op::shfl_xor: return shuffle_results<warp_op::shfl_xor>(g, unread, deliver);
    default: return other_results(g, deliver);
  }
}

}  // namespace

std::string describe_lanes(unsigned int lanes) {
  std::string text;
  for (unsigned int lane = 0; lane < lanes_per_warp;) {
    if ((lanes & bit(lane)) == 0) {
      ++lane;
      continue;
    }
    unsigned int end = lane;
    while (end + 1 < lanes_per_warp && (lanes & bit(end + 1)) != 0) ++end;
    if (!text.empty()) text += ',';
    text += end == lane ? fmt::format("{}", lane) : fmt::format("{}-{}", lane, end);
    lane = end + 1;
  }
  return text.empty() ? "none" : text;
}

void warp_state::reset(unsigned int present, const block_state& block, unsigned int index) {
  present_ = present;
  block_ = &block;
  index_ = index;
  exited_ = 0;
  at_barrier_ = 0;
  groups_.clear();
  unread_ = 0;
  completed_ = 0;
}

// A group completes when every lane it names that exists and has not exited
// has arrived. __activemask groups complete only when the whole warp is
// quiescent (every live lane waits somewhere): the lanes that reached the
// call by then are the ones converged there.
bool warp_state::quiescent() const {
  unsigned int waiting = at_barrier_;
  for (const warp_group& g : groups_) waiting |= g.arrived;
  return (present_ & ~exited_ & ~waiting) == 0;
}

void warp_state::complete(std::size_t index, fiber_queue& woken) {
  const warp_group& g = groups_[index];
  unsigned int unread = 0;
  // The results go straight to the lanes' fibers, which wake in lane order.
  warp_results(g, unread, [&](unsigned int lane, const warp_result& result) {
    g.fibers[lane]->warp_outcome = result;
    woken.push_back(g.fibers[lane]);
  });
  if (unread != 0 && unread_ == 0) {
    unread_file_ = g.file;
    unread_line_ = g.line;
    unread_op_ = g.op;
  }
  unread_ |= unread;
  // Complete, so lanes named by its mask that had not joined it exited.
  const unsigned int deserters = g.mask & g.disputed & ~g.arrived;
  if (deserters != 0 && disagreement_.lanes == 0) {
    disagreement_ = {deserters, g.op, g.file, g.line, g.mask, g.other_mask, g.arrived};
  }
  if (g.op != warp_op::active_mask) {
    ++completed_;
    if (trace::enabled) trace::collective(block_->trace_identity(), index_, warp_op_name(g.op), g.started, trace::now(), g.file, g.line);
  }
  groups_.erase(groups_.begin() + static_cast<std::ptrdiff_t>(index));
}

void warp_state::complete_ready_groups(fiber_queue& woken) {
  bool active_mask_waits = false;
  for (std::size_t i = 0; i < groups_.size();) {
    if (groups_[i].op == warp_op::active_mask) active_mask_waits = true;
    if (groups_[i].op != warp_op::active_mask && ready(groups_[i])) complete(i, woken);
    else ++i;
  }
  if (!active_mask_waits || !quiescent()) return;
  // A quiescent warp releases one __activemask group at a time, the one
  // earliest in program order as far as the source tells (the lower line of
  // one file, else the older group). Lanes that skipped a branch and wait at
  // a later __activemask are so joined there by the lanes that took it, as on
  // a GPU, where divergent lanes reconverge before going on.
  std::size_t first = groups_.size();
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    if (groups_[i].op != warp_op::active_mask) continue;
    if (first == groups_.size() ||
        (std::strcmp(groups_[i].file, groups_[first].file) == 0 && groups_[i].line < groups_[first].line)) {
      first = i;
    }
  }
  if (first != groups_.size()) complete(first, woken);
}

// A collective is one instance per mask: it completes when the lanes its
// mask names have arrived, whatever the warp's other lanes do. Lanes of one
// warp may so wait at collectives of disjoint masks at once, and a lane may
// arrive at one while a collective of a wider mask that names it waits for
// it (cg::binary_partition's halves reducing, each with its own mask, while
// lanes that finished wait at the tile's sync): it gets there later. Misuse
// is a lane arriving with the mask of a pending collective but another
// intrinsic, or, found later, lanes that disagree on the mask
// (warp_state::disagreement); other masks that overlap and wait for each
// other are a deadlock, which the block's progress check reports
// (worker.cpp).
warp_state::arrival warp_state::arrive(fiber& self, unsigned int lane, const warp_call& call, fiber_queue& woken,
                                       std::string& expected) {
  // __activemask groups gather the lanes reaching one call site together.
  const bool active = call.op == warp_op::active_mask;
  auto it = std::find_if(groups_.begin(), groups_.end(), [&](const warp_group& g) {
    return active ? g.op == warp_op::active_mask && g.file == call.file && g.line == call.line
                  : g.op != warp_op::active_mask && g.mask == call.mask;
  });
  if (it == groups_.end() && !active) {
    // No collective of its mask: those at the same call whose masks overlap
    // its own are disputed (warp_state::disagreement).
    warp_group& opened = open_group(call);
    for (warp_group& g : groups_) {
      const unsigned int shared = g.mask & call.mask;
      if (&g == &opened || g.op != call.op || g.line != call.line || g.file != call.file || shared == 0) continue;
      g.disputed |= shared;
      g.other_mask = call.mask;
      opened.disputed |= shared;
      opened.other_mask = g.mask;
    }
    it = groups_.end() - 1;
  }
  if (it != groups_.end() && !active && it->op != call.op) {
    expected = fmt::format("{} ({}:{}) with mask {:#010x}, where lanes {} wait", warp_op_name(it->op), it->file,
                           it->line, it->mask, describe_lanes(it->arrived));
    return arrival::mismatch;
  }
  if (it == groups_.end()) {
    open_group(call);
    it = groups_.end() - 1;
  }
  join(*it, self, lane, call);
  complete_ready_groups(woken);
  for (const warp_group& g : groups_) {
    if ((g.arrived & bit(lane)) != 0) return arrival::waiting;
  }
  return arrival::completed;
}

warp_group& warp_state::open_group(const warp_call& call) {
  warp_group& g = groups_.emplace_back();
  g.op = call.op;
  g.mask = call.op == warp_op::active_mask ? present_ : call.mask;
  g.file = call.file;
  g.line = call.line;
  g.race_token = race::fresh_token();
  if (trace::enabled) g.started = trace::now();
  return g;
}

unsigned int warp_state::take_unread(const char*& file, unsigned int& line, warp_op& op) {
  const unsigned int lanes = unread_;
  file = unread_file_;
  line = unread_line_;
  op = unread_op_;
  unread_ = 0;
  return lanes;
}

std::string warp_state::describe_waits() const {
  std::string text;
  for (const warp_group& g : groups_) {
    const unsigned int missing = g.mask & present_ & ~exited_ & ~g.arrived;
    text += fmt::format("; lanes {} wait at {} ({}:{}) with mask {:#010x}", describe_lanes(g.arrived),
                        warp_op_name(g.op), g.file, g.line, g.mask);
    if (missing != 0) text += fmt::format(" for lanes {}", describe_lanes(missing));
  }
  if (at_barrier_ != 0) text += fmt::format("; lanes {} wait at __syncthreads", describe_lanes(at_barrier_));
  return text;
}

}  // namespace cusim::detail
