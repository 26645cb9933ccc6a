// The initialisation check (cusim-cc --check=init), compute-sanitizer's
// initcheck: a kernel that reads device memory (cudaMalloc and the like)
// that nothing has written is reported, with its kernel, block, thread and
// source line. The program is built with ThreadSanitizer's instrumentation,
// whose hooks here see every load and store of its code; the runtime's own
// writes (copies and memsets, memory/runtime_writes.hpp) it learns of from
// the runtime. Each allocation has a bit per byte, set when the byte is
// written, made on first use and dropped when the allocation is freed.
//
// Only device memory is followed, as on a GPU: managed and pinned host
// memory the host may fill by any means (fread, a libc memcpy), which no
// hook sees. Neither is shared memory (Valgrind follows it: debugging.md).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include <fmt/format.h>

#include <cusim/detail/builtins.hpp>

#include "check/address_description.hpp"
#include "memory/allocations.hpp"
#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "sched/block.hpp"
#include "sched/grid.hpp"
#include "support/diagnostics.hpp"
#include "support/program_site.hpp"
#include "support/source_lines.hpp"

namespace cusim::detail {

// A checked program hears of each error a CUDA call returns (runtime/errors.hpp).
[[maybe_unused]] const bool errors_reported = (report_errors_by_default(), true);

namespace {

// The written bytes of one device allocation.
struct written_bytes {
  std::uintptr_t base;
  std::size_t size;
  std::unique_ptr<std::atomic<std::uint8_t>[]> bits;  // bit i % 8 of bits[i / 8]: byte i written

  written_bytes(std::uintptr_t b, std::size_t n)
      : base(b), size(n), bits(std::make_unique<std::atomic<std::uint8_t>[]>((n + 7) / 8)) {}

  bool holds(std::uintptr_t address) const { return address >= base && address - base < size; }

  // The bits of [i, i + count) when they lie in one byte of `bits` (an
  // aligned access of up to 8 bytes: nearly all of them), else 0.
  static std::uint8_t one_byte_mask(std::size_t i, std::size_t count) {
    return i % 8 + count <= 8 ? static_cast<std::uint8_t>(((1u << count) - 1u) << (i % 8)) : 0;
  }

  void mark(std::uintptr_t from, std::size_t count) {
    const std::size_t first = from - base;
    if (const std::uint8_t mask = one_byte_mask(first, count); mask != 0 && first + count <= size) {
      std::atomic<std::uint8_t>& cell = bits[first / 8];
      if ((cell.load(std::memory_order_relaxed) & mask) != mask) cell.fetch_or(mask, std::memory_order_relaxed);
      return;
    }
    for (std::size_t i = first, end = std::min(size, i + count); i < end; ++i) {
      const auto bit = static_cast<std::uint8_t>(1u << (i % 8));
      if ((bits[i / 8].load(std::memory_order_relaxed) & bit) == 0) bits[i / 8].fetch_or(bit, std::memory_order_relaxed);
    }
  }

  bool written(std::size_t i) const { return (bits[i / 8].load(std::memory_order_relaxed) >> (i % 8) & 1u) != 0; }

  // The first byte of [from, from + count) nothing wrote, or none.
  std::optional<std::size_t> first_unwritten(std::uintptr_t from, std::size_t count) const {
    const std::size_t first = from - base;
    if (const std::uint8_t mask = one_byte_mask(first, count); mask != 0 && first + count <= size) {
      if ((bits[first / 8].load(std::memory_order_relaxed) & mask) == mask) return std::nullopt;  // all written
    }
    for (std::size_t i = first, end = std::min(size, i + count); i < end; ++i) {
      if (!written(i)) return i;
    }
    return std::nullopt;
  }

  bool any_written(std::uintptr_t from, std::size_t count) const {
    for (std::size_t i = from - base, end = std::min(size, i + count); i < end; ++i) {
      if (written(i)) return true;
    }
    return false;
  }
};

// Every device allocation used so far, by base. Lookups from the hooks go
// through a per-OS-thread cache of the last few ranges looked up (an
// allocation, device or not, or a page outside every allocation: a stack,
// shared memory, the host's heap), valid while no allocation has been made
// or freed since (`generation`): a kernel that reads two buffers and writes
// a third through its locals finds each there.
class written_memory {
 public:
  // The record of the device allocation holding `address`, or null.
  written_bytes* find(const void* address) {
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    thread_local lookup_cache cache;
    const std::uint64_t now = generation_.load(std::memory_order_acquire);
    if (cache.generation != now) cache = lookup_cache{.generation = now};
    for (const cached_range& r : cache.ranges) {
      if (a >= r.from && a < r.to) return r.bytes;
    }
    cached_range& r = cache.ranges[cache.next++ % cache.ranges.size()];
    const std::optional<allocation> found = find_allocation(address);  // before the lock: allocations' own
    if (!found) {
      constexpr std::uintptr_t page = 4096;
      r = {a / page * page, a / page * page + page, nullptr};
      return nullptr;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(found->base);
    r = {base, base + found->size, nullptr};
    if (found->kind != memory_kind::device) return nullptr;
    std::lock_guard lock(mutex_);
    auto it = by_base_.find(base);
    if (it == by_base_.end()) it = by_base_.emplace(base, std::make_unique<written_bytes>(base, found->size)).first;
    r.bytes = it->second.get();
    return r.bytes;
  }

  void allocations_changed() { generation_.fetch_add(1, std::memory_order_acq_rel); }

  void forget(const void* base) {
    std::lock_guard lock(mutex_);
    by_base_.erase(reinterpret_cast<std::uintptr_t>(base));
    allocations_changed();
  }

 private:
  struct cached_range {
    std::uintptr_t from = 0, to = 0;
    written_bytes* bytes = nullptr;  // null: not device memory
  };
  struct lookup_cache {
    std::uint64_t generation = 0;
    unsigned int next = 0;
    std::array<cached_range, 8> ranges{};
  };

  std::mutex mutex_;
  std::map<std::uintptr_t, std::unique_ptr<written_bytes>> by_base_;
  std::atomic<std::uint64_t> generation_{1};
};

written_memory& memory() {
  // Made on first use (a program's static constructors store through the
  // hooks before this file's statics exist), never destroyed (kernels may
  // run while statics are).
  static auto* m = new written_memory;
  return *m;
}

void mark_written(const void* address, std::size_t count) {
  if (written_bytes* w = memory().find(address)) w->mark(reinterpret_cast<std::uintptr_t>(address), count);
}

// Reports: one per instruction (the first thread to reach it), at most
// report_limit; the count of every unwritten read, at exit.
constexpr unsigned int report_limit = 100;
std::mutex report_mutex;
std::unordered_set<const void*> reported_sites;
std::atomic<std::uint64_t> unwritten_reads{0};

// `first_unwritten`: which byte of the read nothing wrote.
void report_unwritten(const thread_context& t, const void* address, std::size_t first_unwritten, unsigned int bytes,
                      bool atomic, void* pc) {
  unwritten_reads.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(report_mutex);
    if (reported_sites.size() >= report_limit || !reported_sites.insert(pc).second) return;
  }
  // The program's line: where an access in cusim's headers (an atomic's)
  // was inlined, or else the first of the program's frames.
  std::string line = program_site_of({pc});
  if (line.empty()) line = program_call_site();
  if (line.empty()) line = source_lines({pc})[pc];
  const std::string where = describe_device_address(address);
  report("initcheck: kernel {}, block ({},{},{}), thread ({},{},{}) at {} {} {} bytes of device memory that nothing "
         "has written{}{}{}. A copy (cudaMemcpy and the like), a cudaMemset or a kernel's store writes memory; "
         "cudaMalloc leaves it as it was.",
         t.block->grid().kernel_name(), t.block_idx.x, t.block_idx.y, t.block_idx.z, t.thread_idx.x, t.thread_idx.y,
         t.thread_idx.z, line, atomic ? "makes an atomic read-modify-write of" : "reads", bytes,
         first_unwritten == 0 ? std::string() : fmt::format(" (from its byte {})", first_unwritten),
         where.empty() ? "" : ": ", where);
}

void check_read(const void* address, unsigned int bytes, bool atomic, void* pc) {
  const thread_context* t = current_thread;
  if (t == nullptr || t->block == nullptr) return;  // the host's: not checked, as on a GPU
  if (t->block->owns_shared(address)) return;       // not followed (the commonest read in a tiled kernel)
  written_bytes* w = memory().find(address);
  if (w == nullptr) return;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  // A read wider than a scalar is most often a structure's copy, padding
  // included, which no store fills (nvcc copies the members): only one of
  // which no byte was written counts.
  if (bytes > sizeof(double) && w->any_written(a, bytes)) return;
  if (const auto unwritten = w->first_unwritten(a, bytes)) {
    report_unwritten(*t, address, *unwritten - (a - w->base), bytes, atomic, pc);
    w->mark(a, bytes);  // reported once: the read's value now stands for what it is
  }
}

// A copy's source: compute-sanitizer reports a copy of device memory nothing
// wrote too ("Host API memory access error ... by cudaMemcpy source"),
// once per copy.
void check_copy_source(const void* src, std::size_t count) {
  written_bytes* w = memory().find(src);
  if (w == nullptr) return;
  const auto a = reinterpret_cast<std::uintptr_t>(src);
  const auto unwritten = w->first_unwritten(a, count);
  if (!unwritten) return;
  unwritten_reads.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(report_mutex);
    if (reported_sites.size() >= report_limit) return;
    reported_sites.insert(src);  // (a copy's place: its source)
  }
  const void* first = reinterpret_cast<const void*>(w->base + *unwritten);
  const std::string where = describe_device_address(first);
  report("initcheck: a copy (cudaMemcpy and the like) of {} bytes reads device memory that nothing has written, from "
         "its byte {}{}{}.",
         count, *unwritten - (a - w->base), where.empty() ? "" : ": ", where);
}

void note_made() { memory().allocations_changed(); }
void note_freed(const void* base) { memory().forget(base); }

const runtime_write_observer observer{check_copy_source, mark_written, note_made, note_freed};

void summary_at_exit() {
  const std::uint64_t reads = unwritten_reads.load();
  if (reads == 0) return;
  std::lock_guard lock(report_mutex);
  report("initcheck: {} read{} of device memory that nothing had written, at {} place{} (reported above); the "
         "program's exit status is 66.",
         reads, reads == 1 ? "" : "s", reported_sites.size(), reported_sites.size() == 1 ? "" : "s");
  std::fflush(nullptr);  // the program's output, which _Exit would drop
  std::_Exit(66);
}

const bool observing = [] {
  observe_runtime_writes(&observer);
  std::atexit(summary_at_exit);
  return true;
}();

}  // namespace

void on_access(void* address, unsigned int bytes, bool write, void* pc) {
  if (write) {
    mark_written(address, bytes);
  } else {
    check_read(address, bytes, false, pc);
  }
}

void on_atomic(volatile void* address, unsigned int bytes, bool reads, void* pc) {
  void* a = const_cast<void*>(address);
  if (reads) check_read(a, bytes, true, pc);
  mark_written(a, bytes);
}

void on_function_entry(void*) {}
void on_function_exit(const void*) {}
void on_basic_block(void*, const void*) {}

}  // namespace cusim::detail

#include "support/instrumentation_hooks.inc"
