// The access-pattern check (cusim-cc --check=banks): the program is built
// with ThreadSanitizer's instrumentation, whose hooks here see every load
// and store with its address, size and instruction. Accesses to a block's
// shared memory and to memory from cudaMalloc and the like are grouped into
// warp requests, as a warp executes them: the k-th time each lane of a warp
// executes an instruction is one request. A request is costed
// (access_patterns.hpp) once every lane of the warp that has not exited has
// made it, or when the block finishes (lanes that diverged away never will);
// it is partial when some lanes of the warp never made it.
#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <cusim/detail/builtins.hpp>

#include "check/access_patterns.hpp"
#include "check/access_sites.hpp"
#include "memory/allocations.hpp"
#include "runtime/errors.hpp"
#include "sched/block.hpp"

namespace cusim::detail {

// A checked program hears of each error a CUDA call returns (runtime/errors.hpp).
[[maybe_unused]] const bool errors_reported = (report_errors_by_default(), true);

namespace {

constexpr unsigned int lanes = 32;

struct request {
  unsigned int mask = 0;  // lanes that made it
  std::array<lane_access, lanes> by_lane{};
};

struct request_key {
  unsigned int warp;
  std::uint32_t execution;  // the k-th time each lane reached `site`
  site_key site;
  bool operator==(const request_key&) const = default;
};
struct request_key_hash {
  std::size_t operator()(const request_key& k) const {
    const std::size_t pc = reinterpret_cast<std::uintptr_t>(k.site.pc);
    return pc * 0x9e3779b97f4a7c15ull ^ (std::size_t{k.warp} << 40) ^ (std::size_t{k.execution} << 8) ^
           (std::size_t(k.site.space) << 1) ^ std::size_t(k.site.write);
  }
};
struct site_key_hash {
  std::size_t operator()(const site_key& k) const {
    return reinterpret_cast<std::uintptr_t>(k.pc) * 0x9e3779b97f4a7c15ull ^ (std::size_t(k.space) << 1) ^
           std::size_t(k.write);
  }
};

// What one resident block's warps have done and not yet completed.
struct block_record {
  std::uint64_t serial = 0;  // the block run it belongs to (block_state objects are reused)
  std::vector<std::unordered_map<site_key, std::uint32_t, site_key_hash>> executions;  // by thread
  std::unordered_map<request_key, request, request_key_hash> open;
};

void complete(const request_key& key, const request& r, unsigned int warp_lanes) {
  std::array<lane_access, lanes> made{};
  unsigned int count = 0;
  for (unsigned int lane = 0; lane < lanes; ++lane) {
    if ((r.mask >> lane) & 1u) made[count++] = r.by_lane[lane];
  }
  const std::span<const lane_access> accesses(made.data(), count);
  const request_cost cost = key.site.space == memory_space::shared ? shared_request_cost(accesses)
                                                                   : global_request_cost(accesses);
  tally_request(key.site, cost.actual, cost.ideal, r.mask != warp_lanes);
}

// Per worker thread: the records of its resident blocks.
thread_local std::unordered_map<const block_state*, block_record> records;

block_record& record_of(const block_state& block) {
  block_record& r = records[&block];
  if (r.serial != block.serial()) {
    r.serial = block.serial();
    r.executions.assign(block.thread_count(), {});
    r.open.clear();
  }
  return r;
}

// Global memory: an allocation of the CUDA API (the last one hit is remembered).
bool in_allocation(const void* address) {
  thread_local const std::byte* base = nullptr;
  thread_local std::size_t size = 0;
  const auto* p = static_cast<const std::byte*>(address);
  if (p >= base && p < base + size) return true;
  const std::optional<allocation> found = find_allocation(address);
  if (!found) return false;
  base = static_cast<const std::byte*>(found->base);
  size = found->size;
  return true;
}

void on_access(void* address, unsigned int bytes, bool write, void* pc) {
  const thread_context* t = current_thread;
  if (t == nullptr || t->block == nullptr) return;
  block_state& block = *t->block;
  memory_space space;
  if (block.owns_shared(address)) space = memory_space::shared;
  else if (in_allocation(address)) space = memory_space::global;
  else return;  // a local variable, a __device__ variable, the runtime's own
  block_record& r = record_of(block);
  const site_key site{pc, space, write};
  const unsigned int tid = t->linear_tid;
  const request_key key{tid / lanes, r.executions[tid][site]++, site};
  request& req = r.open[key];
  const unsigned int lane = tid % lanes;
  req.mask |= 1u << lane;
  req.by_lane[lane] = lane_access{reinterpret_cast<std::uintptr_t>(address), bytes};
  const warp_state& warp = block.warp_of(tid);
  if ((warp.live() & ~req.mask) == 0) {
    complete(key, req, warp.present());
    r.open.erase(key);
  }
}

void on_atomic(volatile void*, unsigned int, bool, void*) {}
void on_function_entry(void*) {}
void on_function_exit(const void*) {}
void on_basic_block(void*, const void*) {}

void block_finished(const block_state& block) {
  auto it = records.find(&block);
  if (it == records.end()) return;
  if (it->second.serial == block.serial()) {
    for (const auto& [key, req] : it->second.open) {
      complete(key, req, block.warp_of(key.warp * lanes).present());
    }
  }
  records.erase(it);
}

const bool observing = [] {
  block_finished_observer = block_finished;
  return true;
}();

}  // namespace

}  // namespace cusim::detail

#include "support/instrumentation_hooks.inc"
