#include "memory/allocations.hpp"
#include "memory/runtime_writes.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#include <cusim/profile.hpp>

#include <fmt/format.h>

#include "memory/small_buffers.hpp"
#include "memory/unwritten.hpp"
#include "platform/memory.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {

constexpr std::size_t alignment = 256;

// A GPU maps device memory in 2 MiB pages and places large allocations
// apart, so an index that runs far past a large buffer faults there
// ("an illegal memory access"). On the host, consecutive large blocks sit
// side by side and the same read would quietly land in the next buffer
// (CUDA by Example's hash table reads its values array as twice its size:
// the H100 stops it; cusim ran it to the end). So a device or managed
// allocation of 2 MiB or more gets a mapping of its own, its size rounded
// up to 2 MiB (which stays addressable, as the GPU's page does), followed by
// as much address space again that faults (memory is not spent on it).
// Not under AddressSanitizer (cusim-cc --check=memory, and cusim's own ASan
// build): its allocator's quarantine reports a use after cudaFree with
// where the buffer was allocated and freed, which an unmapped range cannot.
constexpr std::size_t large_page = std::size_t{2} << 20;

bool counts_as_device(memory_kind kind) {
  return kind == memory_kind::device || kind == memory_kind::managed;
}

bool mapped_apart(std::size_t size, memory_kind kind) {
  return counts_as_device(kind) && size >= large_page && platform::guard_pages_available() &&
         !address_check::enabled;
}

// A device or managed buffer too small to be mapped apart: in the regions
// of small buffers (small_buffers.hpp says why), where they are used.
bool in_small_buffers(memory_kind kind) { return counts_as_device(kind) && small_buffers::used(); }

std::size_t rounded_size(std::size_t size) {
  return size == 0 ? alignment : (size + alignment - 1) / alignment * alignment;
}

// A large allocation's mapping from its start to the end of its 2 MiB
// rounding; the mapping is twice that, the address space that faults
// following.
std::size_t rounded_mapping(const allocation& a) { return (a.lead + a.size + large_page - 1) / large_page * large_page; }

// What the program has no business touching past its bytes: the rounding to
// 256 bytes, or to the 2 MiB page of a large one.
std::size_t padded_size(const allocation& a) {
  return mapped_apart(a.size, a.kind) ? rounded_mapping(a) - a.lead : rounded_size(a.size);
}

// Where in its mapping the next large allocation starts: 16 offsets a page
// and a quarter apart. Buffers of equal size that all started at their
// mapping's beginning lay a multiple of 4 MiB apart, so that a[i], b[i] and
// c[i] of a vector add fell in the same cache sets: W1 took 51 ms instead
// of 40, its native loop on the same buffers 13 ms instead of 11.
std::size_t next_lead() {
  static std::atomic<unsigned int> allocations{0};
  return allocations.fetch_add(1, std::memory_order_relaxed) % 16 * (4096 + 1024);
}

// The block for an allocation of `size` bytes of `kind` on `device`; its
// base is nullptr when there is no memory.
allocation allocate_block(std::size_t size, memory_kind kind, int device) {
  allocation made{nullptr, size, kind, device};
  if (!mapped_apart(size, kind)) {
    made.base = in_small_buffers(kind) ? small_buffers::take(rounded_size(size))
                                       : std::aligned_alloc(alignment, rounded_size(size));
    return made;
  }
  made.lead = next_lead();
  const std::size_t rounded = rounded_mapping(made);
  char* mapping = static_cast<char*>(platform::reserve_memory(2 * rounded));
  if (mapping == nullptr) return made;
  if (!platform::make_guard(mapping + rounded, rounded)) {
    platform::release_memory(mapping, 2 * rounded);
    return made;
  }
  made.base = mapping + made.lead;
  // Valgrind takes fresh mappings for written memory: as a malloc'd block's,
  // the buffer's bytes are unwritten and the rest out of bounds.
  mark_no_access(mapping, made.lead);
  mark_unwritten(made.base, size);
  mark_no_access(static_cast<char*>(made.base) + size, padded_size(made) - size);
  return made;
}

void free_block(const allocation& a) {
  note_allocation_freed(a.base);
  if (mapped_apart(a.size, a.kind)) {
    platform::release_memory(static_cast<char*>(a.base) - a.lead, 2 * rounded_mapping(a));
  } else if (in_small_buffers(a.kind)) {
    small_buffers::give_back(a.base, rounded_size(a.size));
  } else {
    std::free(a.base);
  }
}

struct table {
  std::mutex mutex;
  std::map<std::uintptr_t, allocation> by_base;
  std::map<int, std::size_t> device_bytes;  // by device

  void free_all(int device) {
    std::erase_if(by_base, [&](auto& entry) {
      const allocation& a = entry.second;
      if (a.device != device) return false;
      if (a.kind != memory_kind::registered_host) free_block(a);
      return true;
    });
    device_bytes[device] = 0;
  }
};

// Never destroyed: the device thread may still run a program's last kernels
// while static objects are destroyed at exit (device_queue.hpp), and memory
// a program did not free stays reachable, as a driver keeps it until the
// process ends.
table& the_table() {
  static table& t = *new table;
  return t;
}

// How far past its base an allocation reaches, for lookup: its bytes, its
// padding too, or also the address space that faults after a large one.
enum class reach { bytes, padding, fault_range };

// The entry containing `address` within `how_far`; the caller holds the mutex.
const allocation* lookup(table& t, const void* address, reach how_far = reach::bytes) {
  const auto key = reinterpret_cast<std::uintptr_t>(address);
  auto it = t.by_base.upper_bound(key);
  if (it == t.by_base.begin()) return nullptr;
  --it;
  const allocation& a = it->second;
  // A zero-byte allocation still owns its (aligned, non-empty) block.
  const std::size_t extent = how_far == reach::bytes         ? (a.size == 0 ? 1 : a.size)
                             : how_far == reach::padding     ? padded_size(a)
                             : mapped_apart(a.size, a.kind) ? 2 * rounded_mapping(a) - a.lead
                                                            : padded_size(a);
  return key < it->first + extent ? &a : nullptr;
}

}  // namespace

void* allocate(std::size_t size, memory_kind kind) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  const int device = current_device();
  std::size_t& in_use = t.device_bytes[device];
  if (counts_as_device(kind) && size > active_profile().total_global_mem - in_use) return nullptr;
  const allocation made = allocate_block(size, kind, device);
  void* base = made.base;
  if (base == nullptr) return nullptr;
  // The rounding is cusim's, not the program's: an access there is out of bounds.
  address_check::poison(static_cast<char*>(base) + size, padded_size(made) - size);
  t.by_base.emplace(reinterpret_cast<std::uintptr_t>(base), made);
  if (counts_as_device(kind)) in_use += size;
  note_allocation_made();
  return base;
}

bool release(void* base, bool accept_device_or_managed, bool accept_pinned) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(base));
  if (it == t.by_base.end()) return false;
  const bool device = counts_as_device(it->second.kind);
  if (it->second.kind == memory_kind::registered_host) return false;  // not cusim's to free
  if (device ? !accept_device_or_managed : !accept_pinned) return false;
  if (device) t.device_bytes[it->second.device] -= it->second.size;
  free_block(it->second);
  t.by_base.erase(it);
  return true;
}

std::optional<allocation> find_allocation(const void* address) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  const allocation* a = lookup(t, address);
  return a ? std::optional<allocation>(*a) : std::nullopt;
}

std::string describe_allocation_address(const void* address) {
  table& t = the_table();
  // Reports come from sanitizers, maybe while cusim's own code holds the lock.
  std::unique_lock lock(t.mutex, std::try_to_lock);
  if (!lock) return {};
  const allocation* a = lookup(t, address, reach::padding);
  if (a == nullptr) return {};
  const auto offset = static_cast<std::size_t>(static_cast<const char*>(address) - static_cast<char*>(a->base));
  return place_in(offset, a->size,
                  fmt::format("the {}-byte buffer at {} (cudaMalloc and the like, device {})", a->size, a->base,
                              a->device));
}

std::string describe_address_past_allocation(const void* address) {
  table& t = the_table();
  std::unique_lock lock(t.mutex, std::try_to_lock);
  if (!lock) return {};
  const allocation* a = lookup(t, address, reach::fault_range);
  if (a == nullptr || lookup(t, address, reach::padding) != nullptr) return {};  // in no range, or not past it
  const auto past = static_cast<std::size_t>(static_cast<const char*>(address) - static_cast<char*>(a->base)) - a->size;
  return fmt::format("{} bytes after the end of the {}-byte buffer at {} (cudaMalloc and the like, device {})", past,
                     a->size, a->base, a->device);
}

bool is_device_range(const void* address, std::size_t bytes) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  const allocation* a = lookup(t, address);
  if (a == nullptr || !counts_as_device(a->kind)) return false;
  const auto offset = reinterpret_cast<std::uintptr_t>(address) - reinterpret_cast<std::uintptr_t>(a->base);
  return offset + bytes <= a->size;
}

std::size_t device_bytes_in_use(int device) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  return t.device_bytes[device];
}

bool register_host_range(void* base, std::size_t size) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  const auto start = reinterpret_cast<std::uintptr_t>(base);
  auto next = t.by_base.lower_bound(start);
  if (next != t.by_base.end() && next->first < start + size) return false;
  if (lookup(t, base) != nullptr) return false;
  t.by_base.emplace(start, allocation{base, size, memory_kind::registered_host, current_device()});
  return true;
}

bool unregister_host_range(void* base) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(base));
  if (it == t.by_base.end() || it->second.kind != memory_kind::registered_host) return false;
  t.by_base.erase(it);
  return true;
}

void release_all(int device) {
  table& t = the_table();
  std::lock_guard lock(t.mutex);
  t.free_all(device);
}

}  // namespace cusim::detail
