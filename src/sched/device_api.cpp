// What device code calls into: __syncthreads, __shared__ storage, device
// assert. Each finds the running CUDA thread through current_thread.
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/progress.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <time.h>

#include <cusim/profile.hpp>

#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "sched/block.hpp"
#include "sched/device_failure.hpp"
#include "sched/fiber.hpp"
#include "sched/race_check.hpp"
#include "sched/schedule.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {

// Device code called from the host (a kernel called like a plain function, say).
[[noreturn]] void called_outside_kernel(const char* what) {
  fatal("{} was called outside a kernel: device code must run through a launch (<<<...>>> or cusim::launch)", what);
}

// The running CUDA thread's worker, or null outside a kernel.
worker* kernel_worker() {
  worker* w = worker::current();
  return current_thread != nullptr ? w : nullptr;
}

// The running CUDA thread's worker, or a clear death outside a kernel.
worker& device_worker(const char* what) {
  if (worker* w = kernel_worker()) return *w;
  called_outside_kernel(what);
}

}  // namespace

bool in_shared_memory(const void* p) {
  worker* w = worker::current();
  return w != nullptr && w->in_shared_memory(p);
}

bool in_local_memory(const void* p) {
  worker* w = worker::current();
  return w != nullptr && w->in_local_memory(p);
}

namespace {
struct constant_ranges {
  std::mutex mutex;
  std::map<const char*, std::size_t> by_start;  // start -> size
};
constant_ranges& constants() {
  static constant_ranges& ranges = *new constant_ranges;  // never destroyed: kernels may run at exit
  return ranges;
}
}  // namespace

bool register_constant_memory(const void* storage, std::size_t bytes) {
  auto& c = constants();
  std::lock_guard lock(c.mutex);
  c.by_start[static_cast<const char*>(storage)] = bytes;
  return true;
}

bool in_constant_memory(const void* p) {
  auto& c = constants();
  const auto* at = static_cast<const char*>(p);
  std::lock_guard lock(c.mutex);
  auto it = c.by_start.upper_bound(at);
  if (it == c.by_start.begin()) return false;
  --it;
  return at < it->first + it->second;
}

barrier_outcome block_barrier(int predicate, const char* file, unsigned int line) {
  return device_worker("__syncthreads").barrier(predicate, file, line);
}

void grid_barrier(const char* file, unsigned int line) { device_worker("grid.sync()").grid_barrier(file, line); }

void partial_block_barrier(unsigned int first, unsigned int count) {
  device_worker("a tile's sync()").partial_barrier(first, count);
}
std::uint64_t* block_scratch() {
  device_worker("a tile's collective");
  return current_thread->block->scratch();
}

dim3 cluster_dims() {
  device_worker("cluster_group");
  return current_thread->block->grid().shape().cluster;
}
std::uint64_t cluster_arrive() { return device_worker("cluster.barrier_arrive()").cluster_arrive(); }
void cluster_wait(std::uint64_t phase) { device_worker("cluster.barrier_wait()").cluster_wait(phase); }
std::uint64_t cluster_last_arrival() {
  device_worker("cluster.barrier_wait()");
  return current_thread->self->cluster_phase;
}
void* cluster_map_shared(void* address, unsigned int rank, const char* file, unsigned int line) {
  race::runtime_scope bookkeeping;
  return device_worker("cluster.map_shared_rank()").cluster_map_shared(address, rank, file, line);
}
unsigned int cluster_query_rank(const void* address) {
  race::runtime_scope bookkeeping;
  return device_worker("cluster.query_shared_rank()").cluster_query_rank(address);
}

void note_progress_point_in_runtime(progress_kind kind) { count_progress_point(kind); }

void spin_point(bool polling) {
  // Atomics and fences may run outside kernels too (host code): nothing to do there.
  if (worker* w = worker::current(); w != nullptr && current_thread != nullptr) {
    race::runtime_scope bookkeeping;
    w->spin_point(polling);
  }
}

warp_result warp_collective(const warp_call& call) {
  // The operation's name only for the message: looking it up costs a switch.
  if (worker* w = kernel_worker()) return w->warp_collective(call);
  called_outside_kernel(warp_op_name(call.op));
}

void* shared_slot(shared_site& site) {
  race::runtime_scope bookkeeping;
  worker& w = device_worker("a __shared__ variable");
  block_state& block = *current_thread->block;
  if (void* p = block.shared_slot(site)) return p;
  grid_job& grid = block.grid();
  report("kernel {}: __shared__ variable '{}' ({}:{}, {} bytes) does not fit: the block already uses {} bytes "
         "of static and {} of dynamic shared memory, and the limit is {} bytes per block. The launch fails with "
         "cudaErrorInvalidValue.",
         grid.kernel_name(), site.name, site.file, site.line, site.size, block.static_shared_bytes(),
         grid.shape().dynamic_shared_bytes, grid.shared_limit());
  // Later launches of the kernel are checked with this size up front.
  grid.kernel().note_static_shared(block.static_shared_bytes() + site.size);
  grid.abort(cudaErrorInvalidValue);
  w.abandon_thread();
}

long long monotonic_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

long long device_clock_cycles() {
  spin_point(/*polling=*/false);
  const __int128 nanoseconds = monotonic_nanoseconds();
  return static_cast<long long>(nanoseconds * active_profile().clock_rate_khz / 1'000'000);
}

}  // namespace cusim::detail

// CUDA's clock() is C's, compiled for the device too: defined here, it takes
// the place of the C library's in the program. In host code it is what
// glibc's is (processor time, in CLOCKS_PER_SEC); in a kernel, the SM
// clock's low 32 bits, as the 32-bit %clock register, read at a spin point.
extern "C" clock_t clock() noexcept {
  using namespace cusim::detail;
  if (current_thread != nullptr) return static_cast<clock_t>(static_cast<unsigned int>(device_clock_cycles()));
  timespec processor_time{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &processor_time) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(processor_time.tv_sec * CLOCKS_PER_SEC +
                              processor_time.tv_nsec / (1'000'000'000 / CLOCKS_PER_SEC));
}

namespace cusim::detail {

void* dynamic_shared() {
  device_worker("extern __shared__ memory");
  return current_thread->block->dynamic_shared();
}

block_position running_block_position() {
  device_worker("a special register of inline PTX");
  const block_state& block = *current_thread->block;
  const grid_job& grid = block.grid();
  const auto sms = static_cast<std::uint64_t>(active_profile().multiprocessor_count);
  return {static_cast<unsigned int>(block.linear_index() % sms), grid.serial(), grid.shape().dynamic_shared_bytes,
          block.static_shared_bytes(), block.cluster_rank};
}

long long wall_clock_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

char* failure_message_buffer() {
  thread_local char buffer[failure_message_size];
  return buffer;
}

void stop_grid(const char* what, const char* file, unsigned int line, cudaError_t error) {
  worker* w = worker::current();
  if (w == nullptr || current_thread == nullptr) {
    report("{} at {}:{} on the host: the process aborts.", what, file, line);
    std::abort();
  }
  w->fail_grid(fmt::format("{} at {}:{}.", what, file, line), error);
  w->abandon_thread();
}

void trap(const char* what, const char* file, unsigned int line) { stop_grid(what, file, line, cudaErrorLaunchFailure); }

void exit_thread() {
  if (worker::current() == nullptr || current_thread == nullptr) {
    report("PTX exit on the host: the process aborts.");
    std::abort();
  }
  throw thread_exit{};
}

}  // namespace cusim::detail

// Device-side assert. glibc's assert() calls __assert_fail; defining it here
// takes precedence over libc's. Inside a kernel a failed assertion reports
// the block and thread, as CUDA does, stops the grid and leaves the context
// unusable with cudaErrorAssert; on the host it behaves like glibc's.
extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                           const char* function) noexcept {
  using namespace cusim::detail;
  worker* w = worker::current();
  if (w != nullptr && current_thread != nullptr) {
    const thread_context& t = *current_thread;
    std::fflush(stdout);
    const uint3 index = thread_index_of(t);
    std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
                 function, t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x, index.y,
                 index.z, assertion);
    note_schedule_for_replay();
    std::fflush(stderr);
    t.block->grid().abort(cudaErrorAssert);
    w->abandon_thread();
  }
  std::fflush(stdout);
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
  std::abort();
}
