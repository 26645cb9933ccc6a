// Only in the race-checking runtime (race_check.hpp).
#ifdef CUSIM_RACE_CHECK
#include "sched/race_check.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <sanitizer/tsan_interface.h>
// Exported by TSan's runtime, not declared by GCC 12's header: the calling
// thread's (fiber's) accesses are ignored from then on.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
// TSan's interface for reading a report (what debuggers use), not declared
// by GCC 12's header either.
extern "C" int __tsan_get_report_mop(void* report, unsigned long index, int* tid, void** address, int* size,
                                     int* write, int* atomic, void** trace, unsigned long trace_size);
// Exported by TSan's runtime (its dynamic-annotation interface): the
// calling thread's (fiber's) synchronisation is ignored in between.
extern "C" void AnnotateIgnoreSyncBegin(const char* file, int line);
extern "C" void AnnotateIgnoreSyncEnd(const char* file, int line);
extern "C" int __tsan_get_report_data(void* report, const char** description, int* count, int* stack_count,
                                      int* mop_count, int* loc_count, int* mutex_count, int* thread_count,
                                      int* unique_tid_count, void** sleep_trace, unsigned long trace_size);
extern "C" int __tsan_get_report_thread(void* report, unsigned long index, int* tid, unsigned long long* os_id,
                                        int* running, const char** name, int* parent_tid, void** trace,
                                        unsigned long trace_size);

#include <cusim/detail/builtins.hpp>

#include "fiber/context.hpp"
#include "check/address_description.hpp"
#include "sched/block.hpp"
#include "sched/fiber.hpp"
#include "sched/grid.hpp"
#include "sched/race_sample.hpp"
#include "sched/schedule.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail::race {

// A checked program hears of each error a CUDA call returns (runtime/errors.hpp).
[[maybe_unused]] const bool errors_reported = (report_errors_by_default(), true);

namespace {
constexpr std::size_t token_count = std::size_t{1} << 20;
char tokens[token_count];  // application memory, as TSan needs of a sync address
std::atomic<std::size_t> next_token{0};

// ThreadSanitizer's newer runtime (clang 14 and later, gcc 13 and later)
// keeps a fixed number of slots for the threads it follows; with more CUDA
// threads alive at once (each is a TSan thread: a block waiting at a
// barrier, blocks on several workers) it recycles them and forgets earlier
// accesses, so races are missed. Measured with clang 14 and one worker:
// sample 170's race (threads alive across a barrier) is found in blocks of
// up to 144 threads and missed from 160 up. gcc 12's runtime has no such
// limit. Past the limit, say so once.
#if (defined(__clang__) && __clang_major__ >= 14) || (!defined(__clang__) && __GNUC__ >= 13)
constexpr std::size_t followed_threads_limit = 144;
#else
constexpr std::size_t followed_threads_limit = 0;  // none
#endif
std::atomic<std::size_t> live_identities{0};
std::atomic<bool> limit_reported{false};

// CUSIM_RACE_THREADS: how many threads of a grid the check follows at most
// (sched/race_sample.hpp); 0: all.
std::uint64_t followed_threads_per_grid() {
  static const auto budget = static_cast<std::uint64_t>(env_nonnegative("CUSIM_RACE_THREADS", 8192));
  return budget;
}
std::atomic<bool> sample_reported{false};

void note_identity_begins() {
  const std::size_t live = live_identities.fetch_add(1, std::memory_order_relaxed) + 1;
  if (followed_threads_limit == 0 || live <= followed_threads_limit) return;
  if (limit_reported.exchange(true, std::memory_order_relaxed)) return;
  report("race checking: {} CUDA threads are alive at once, more than this compiler's ThreadSanitizer runtime "
         "follows (about {}): it forgets earlier accesses and can miss races. Blocks of at most {} threads "
         "with CUSIM_WORKERS=1, or a build with g++ 12, whose runtime has no such limit, find them.",
         live, followed_threads_limit, followed_threads_limit);
}
}  // namespace

const void* fresh_token() { return &tokens[next_token.fetch_add(1, std::memory_order_relaxed) % token_count]; }

void release(const void* token) { __tsan_release(const_cast<void*>(token)); }
void acquire(const void* token) { __tsan_acquire(const_cast<void*>(token)); }

void thread_begins(execution_context& context, const thread_context& t) {
  char name[160];
  const uint3 index = t.thread_idx;  // (threadIdx is not yet the new thread's; race checking runs no loop)
  std::snprintf(name, sizeof name, "kernel %s block (%u,%u,%u) thread (%u,%u,%u)",
                t.block->grid().kernel_name().c_str(), t.block_idx.x, t.block_idx.y, t.block_idx.z, index.x,
                index.y, index.z);
  note_identity_begins();
  context.begin_race_identity(name);
}

void thread_ends(execution_context& context) {
  context.end_race_identity();
  live_identities.fetch_sub(1, std::memory_order_relaxed);
}
bool follows_block(const grid_job& grid, unsigned long long linear_block) {
  const std::uint64_t budget = followed_threads_per_grid();
  const race_sample sample(grid.block_count(), grid.threads_per_block(), budget);
  if (sample.follows_every_block()) return true;
  if (!sample_reported.exchange(true, std::memory_order_relaxed)) {
    report("race checking follows {} of the {} blocks of kernel {} ({} threads each), as it does in every grid of "
           "more than {} threads: pairs of neighbouring blocks spread over the grid, the first and the last among them. "
           "The others run unchecked, with the same results. CUSIM_RACE_THREADS=0 follows every thread (about "
           "0.4 ms each), CUSIM_RACE_THREADS=N up to N threads of each grid.",
           sample.followed_blocks(), grid.block_count(), grid.kernel_name(), grid.threads_per_block(), budget);
  }
  return sample.follows(linear_block);
}

void unfollowed_begins() { AnnotateIgnoreSyncBegin(__FILE__, __LINE__); }
void unfollowed_ends() { AnnotateIgnoreSyncEnd(__FILE__, __LINE__); }

void enter_user(execution_context& context) { context.enter_race_identity(); }
void leave_user(execution_context& context) { context.leave_race_identity(); }

runtime_only_section::runtime_only_section() { __tsan_ignore_thread_begin(); }
runtime_only_section::~runtime_only_section() { __tsan_ignore_thread_end(); }

runtime_scope::runtime_scope() {
  if (current_thread == nullptr || current_thread->self == nullptr) return;
  execution_context& context = current_thread->self->context;
  if (!context.in_race_identity()) return;
  context.leave_race_identity();
  switched_ = &context;
}

runtime_scope::~runtime_scope() {
  if (switched_ != nullptr) switched_->enter_race_identity();
}

}  // namespace cusim::detail::race

namespace {
enum class reported_thread { cuda, host, forgotten };

// What the thread `tid` of a report is: a CUDA thread (named by
// thread_begins), the program's host code, or a thread that has ended and
// that TSan no longer knows (its record was reused: TSan keeps the records
// of only the last few threads that ended).
reported_thread reported_thread_kind(void* tsan_report, int tid) {
  const char* description = nullptr;
  int count = 0, stacks = 0, mops = 0, locations = 0, mutexes = 0, threads = 0, unique_tids = 0;
  void* sleep_trace[1];
  if (__tsan_get_report_data(tsan_report, &description, &count, &stacks, &mops, &locations, &mutexes, &threads,
                             &unique_tids, sleep_trace, 1) == 0) {
    return reported_thread::forgotten;
  }
  for (int i = 0; i < threads; ++i) {
    int thread = 0, running = 0, parent = 0;
    unsigned long long os_id = 0;
    const char* name = nullptr;
    void* trace[1];
    if (__tsan_get_report_thread(tsan_report, static_cast<unsigned long>(i), &thread, &os_id, &running, &name,
                                 &parent, trace, 1) == 0) {
      break;
    }
    if (thread == tid) {
      return name != nullptr && std::strncmp(name, "kernel ", 7) == 0 ? reported_thread::cuda : reported_thread::host;
    }
  }
  return reported_thread::forgotten;
}
}  // namespace

// TSan calls this after printing a report. Its "Location is heap block"
// names a runtime allocation where the program has a __shared__ variable or
// a device buffer: say which, and how to replay the run.
extern "C" void __tsan_on_report(void* tsan_report) {
  using namespace cusim::detail;
  race::runtime_scope bookkeeping;
  int tid = 0, size = 0, write = 0, atomic = 0;
  void* address = nullptr;
  void* trace[1];
  if (__tsan_get_report_mop(tsan_report, 0, &tid, &address, &size, &write, &atomic, trace, 1) != 0 && address != nullptr) {
    const std::string where = describe_device_address(address);
    if (!where.empty()) report("the race above is on {}, which is {}.", address, where);
  }
  // One access is atomic and the other not: the "atomic" one may be a
  // volatile access (race_volatile.cpp), which the report does not tell apart.
  int other_atomic = 0, other_tid = 0;
  const bool two = __tsan_get_report_mop(tsan_report, 1, &other_tid, &address, &size, &write, &other_atomic, trace,
                                         1) != 0;
  const reported_thread first = reported_thread_kind(tsan_report, tid);
  const reported_thread second = two ? reported_thread_kind(tsan_report, other_tid) : first;
  if (second == reported_thread::forgotten) {
    report("the previous access was made by a CUDA thread that has ended, which ThreadSanitizer no longer names nor "
           "keeps the stack of (it keeps only the last few threads that ended): a thread of a block that ran "
           "earlier, or an earlier thread of this block. Its line is most often the same as the other access's.");
  } else if (first != reported_thread::forgotten && first != second) {
    report("one access is the host's and the other a CUDA thread's: the host touched the memory while the kernel "
           "could still run. A synchronisation between the launch and the host's access (cudaDeviceSynchronize, "
           "cudaStreamSynchronize, cudaEventSynchronize) orders them.");
  }
  if (two && atomic != other_atomic) {
    report("one access is atomic (or volatile: the race check takes a volatile access for a relaxed atomic one, as "
           "PTX does) and the other plain, and nothing orders them: a barrier between them would, or making both "
           "atomic or volatile.");
  }
  note_schedule_for_replay();
}
#endif
