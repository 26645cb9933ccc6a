// Streams and events. On the host, work goes to the device queue
// (device_queue.hpp) with the work it must follow, which the streams' order
// decides (stream_order below): a stream remembers its last work's ticket,
// to order, wait for or ask about; an event is a piece of work that stamps
// the clock when it runs, so two events bracket the emulated work between
// them, and a stream that waits for an event follows its record.
//
// In device code they are the device runtime's objects (dynamic
// parallelism): created by a block for its own use, with the flags the
// device runtime requires. A block's launches run one after another in
// launch order (sched/children.hpp), which satisfies every order a stream or
// an event between streams asks for, so device-side records and waits only
// check their handles.
#include "api/streams.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <cusim/profile.hpp>
#include <fmt/format.h>

#include "api/device_queue.hpp"
#include "api/device_runtime.hpp"
#include "api/graphs.hpp"
#include "api/memory.hpp"
#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

// Who made a stream or event: the host, or one block of one kernel.
struct device_runtime_owner {
  std::uint64_t block_serial = 0;  // 0: the host
  std::uint64_t tree = 0;          // the block's launch tree (sched/grid.hpp)
  uint3 block_idx{};
  std::string kernel;
};

struct CUstream_st {
  unsigned int flags = 0;
  int device = 0;  // current when it was created: its work runs there
  int priority = 0;
  cudaAccessPolicyWindow access_policy{};  // cudaStreamAttributeAccessPolicyWindow: kept, changes nothing
  cudaSynchronizationPolicy sync_policy = cudaSyncPolicyAuto;
  device_runtime_owner owner;
  std::atomic<std::uint64_t> last{0};  // the ticket of its last queued work
};

struct CUevent_st {
  unsigned int flags = 0;
  int device = 0;  // current when it was created
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};  // written by the device thread before `ticket` completes
  device_runtime_owner owner;
  std::atomic<std::uint64_t> ticket{0};  // of its last record; 0: never recorded
};

namespace cusim::detail {

// CUSIM_VERBOSE's reasons for the handle errors.
constexpr const char* unknown_stream = "the stream was destroyed, or is not one cudaStreamCreate made";
constexpr const char* unknown_event = "the event was destroyed, or is not one cudaEventCreate made";

namespace {

constexpr int least_stream_priority = 0;
constexpr int greatest_stream_priority = -5;  // sm_90 with CUDA 13

template <class Object>
class handle_registry {
 public:
  // A new object, filled in by the caller before it hands the handle out.
  Object* add(unsigned int flags, device_runtime_owner owner) {
    auto owned = std::make_unique<Object>();
    owned->flags = flags;
    owned->device = current_device();
    owned->owner = std::move(owner);
    Object* handle = owned.get();
    std::lock_guard lock(mutex_);
    live_.emplace(handle, std::move(owned));
    return handle;
  }
  // The object, or nullptr when `handle` names none (never created, destroyed).
  Object* find(const void* handle) {
    std::lock_guard lock(mutex_);
    auto it = live_.find(handle);
    return it == live_.end() ? nullptr : it->second.get();
  }
  void remove(const void* handle) {
    std::lock_guard lock(mutex_);
    live_.erase(handle);
  }
  template <class Visit>
  void for_each(Visit visit) {
    std::lock_guard lock(mutex_);
    for (const auto& entry : live_) visit(*entry.second);
  }
  void remove_owned_by_tree(std::uint64_t tree) {
    std::lock_guard lock(mutex_);
    std::erase_if(live_, [&](const auto& entry) {
      return entry.second->owner.block_serial != 0 && entry.second->owner.tree == tree;
    });
  }

 private:
  std::mutex mutex_;
  std::unordered_map<const void*, std::unique_ptr<Object>> live_;
};

handle_registry<CUstream_st>& streams() {
  static auto& registry = *new handle_registry<CUstream_st>;  // never destroyed: see device_queue.hpp
  return registry;
}
handle_registry<CUevent_st>& events() {
  static auto& registry = *new handle_registry<CUevent_st>;
  return registry;
}

device_runtime_owner running_block() {
  const block_state& block = *current_thread->block;
  return {block.serial(), block.grid().tree->serial, block.block_idx(), block.grid().kernel_name()};
}

// Device code may use an object only if its own block made it.
template <class Object>
cudaError_t check_owned(const Object* object, const void* handle, const char* what, const char* api) {
  std::string problem;
  if (object == nullptr) {
    problem = fmt::format("{} was given {} {}, which does not exist (never created, or destroyed).", api, what, handle);
  } else if (object->owner.block_serial == 0) {
    problem = fmt::format("{} was given {} {}, which the host created. Device code may use only {}s its own block "
                          "created (and the NULL stream, cudaStreamFireAndForget, cudaStreamTailLaunch).",
                          api, what, handle, what);
  } else if (object->owner.block_serial != current_thread->block->serial()) {
    const uint3 b = object->owner.block_idx;
    problem = fmt::format("{} was given {} {}, which block ({},{},{}) of kernel {} created. A device-side {} "
                          "belongs to the block that created it; another block using it is undefined on a GPU.",
                          api, what, handle, b.x, b.y, b.z, object->owner.kernel, what);
  } else {
    return cudaSuccess;
  }
  worker::current()->fail_grid(problem);
  return set_error(cudaErrorInvalidResourceHandle);
}

cudaError_t not_in_device_code(const char* api) {
  static std::mutex mutex;
  static std::unordered_map<std::string, bool> told;
  {
    std::lock_guard lock(mutex);
    if (!told[api]) {
      told[api] = true;
      report("{} is not part of the device runtime: device code cannot wait for a stream or an event, nor time "
             "one (nvcc refuses the call in a kernel). It returns cudaErrorNotSupported.",
             api);
    }
  }
  return set_error(cudaErrorNotSupported);
}

CUevent_st* host_event(cudaEvent_t event) {
  CUevent_st* e = events().find(event);
  return e != nullptr && e->owner.block_serial == 0 ? e : nullptr;
}

}  // namespace

cudaError_t check_host_stream(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return cudaSuccess;
  const CUstream_st* s = streams().find(stream);
  return s != nullptr && s->owner.block_serial == 0 ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t check_device_stream(cudaStream_t stream, const char* api) {
  if (stream == nullptr) return cudaSuccess;
  return check_owned(streams().find(stream), stream, "stream", api);
}

cudaError_t check_launch_stream(cudaStream_t stream, const void* function, const char* callee, const char* file,
                                unsigned int line) {
  if (stream == nullptr || stream == cudaStreamTailLaunch || stream == cudaStreamFireAndForget) return cudaSuccess;
  const CUstream_st* s = streams().find(stream);
  // The usual case, decided without building the report's text.
  if (s != nullptr && s->owner.block_serial == current_thread->block->serial()) return cudaSuccess;
  const char* kernel = report_name(function, callee);  // (the registry's lock: only for the report)
  const std::string what = fmt::format("the launch of {}{}", kernel != nullptr ? kernel : "a kernel",
                                       file != nullptr ? fmt::format(" at {}:{}", file, line) : std::string());
  return check_owned(s, stream, "stream", what.c_str());
}

namespace {

// The order of host streams. Each stream's work follows its own last work.
// The legacy default stream (the NULL stream unless per-thread default
// streams are on, and cudaStreamLegacy) is a barrier for blocking streams:
// its work follows every blocking stream's last work, and a blocking
// stream's work follows the legacy stream's last. Non-blocking streams
// (cudaStreamNonBlocking) order only themselves. A per-thread default
// stream is a blocking stream of its own per host thread.
struct stream_order {
  std::mutex mutex;  // submission and the records below, so each stream's work is queued in its order
  std::map<int, device_queue::ticket> legacy_last;  // by device: each has its own legacy stream
  // The last work of blocking streams destroyed while it was still queued: (device, ticket).
  std::vector<std::pair<int, device_queue::ticket>> retired_blocking;
};
stream_order& order() {
  static auto& o = *new stream_order;  // never destroyed: see device_queue.hpp
  return o;
}

std::atomic<bool> per_thread_default{false};

// cudaStreamPerThread: a blocking stream per host thread and device.
CUstream_st* per_thread_stream() {
  thread_local std::map<int, CUstream_st*> by_device;
  CUstream_st*& stream = by_device[current_device()];
  if (stream == nullptr) stream = streams().add(cudaStreamDefault, {});
  return stream;
}

bool is_legacy(cudaStream_t stream) {
  return stream == cudaStreamLegacy || (stream == nullptr && !per_thread_default.load(std::memory_order_relaxed));
}

// The host stream `stream` names, nullptr for the legacy stream.
CUstream_st* host_stream_record(cudaStream_t stream) {
  if (is_legacy(stream)) return nullptr;
  if (stream == nullptr || stream == cudaStreamPerThread) return per_thread_stream();
  return streams().find(stream);
}

bool is_blocking(const CUstream_st& s) { return s.owner.block_serial == 0 && (s.flags & cudaStreamNonBlocking) == 0; }

// What work submitted to `stream` (nullptr: the legacy stream of `device`)
// now must follow. With order().mutex held.
std::vector<device_queue::ticket> predecessors(CUstream_st* stream, int device) {
  stream_order& o = order();
  std::vector<device_queue::ticket> after;
  if (stream != nullptr) {
    after.push_back(stream->last.load(std::memory_order_relaxed));
    if (is_blocking(*stream)) after.push_back(o.legacy_last[device]);
    return after;
  }
  after.push_back(o.legacy_last[device]);
  std::erase_if(o.retired_blocking, [](const auto& retired) { return the_device().finished(retired.second); });
  for (const auto& [on, last] : o.retired_blocking) {
    if (on == device) after.push_back(last);
  }
  streams().for_each([&](const CUstream_st& s) {
    if (is_blocking(s) && s.device == device) after.push_back(s.last.load(std::memory_order_relaxed));
  });
  return after;
}

}  // namespace

bool request_per_thread_default_stream() {
  per_thread_default.store(true, std::memory_order_relaxed);
  return true;
}

std::uint64_t last_submitted(cudaStream_t stream) {
  if (CUstream_st* s = host_stream_record(stream)) return s->last.load(std::memory_order_acquire);
  std::lock_guard lock(order().mutex);
  return order().legacy_last[current_device()];
}

cudaError_t enqueue(cudaStream_t stream, std::function<void()> work, cudaGraphNodeType type, bool synchronous,
                    const char* api, std::uint64_t* ticket, std::uint64_t also_after, const char* kernel_name) {
  // A launch is traced as "launch <kernel>", other work by its API's name.
  trace::host_call_scope traced(kernel_name != nullptr ? "launch" : api, kernel_name);
  if (trace::enabled) {
    work = [inner = std::move(work), stream, what = std::string(kernel_name != nullptr ? kernel_name : api)] {
      const std::int64_t start = trace::now();
      inner();
      trace::stream_work(stream, what, start, trace::now());
    };
  }
  cudaError_t recorded = cudaSuccess;
  if (record_into_graph(stream, work, type, synchronous, recorded)) return set_error(recorded);
  if (synchronous && !may_wait_for_device(api)) return set_error(cudaErrorNotPermitted);
  device_queue::ticket t = 0;
  {
    stream_order& o = order();
    std::lock_guard lock(o.mutex);
    // Work runs on its stream's device, whichever is current (an H200 pair
    // runs a kernel launched into another device's stream there).
    CUstream_st* s = host_stream_record(stream);
    const int device = s != nullptr ? s->device : current_device();
    std::vector<device_queue::ticket> after = predecessors(s, device);
    if (also_after != 0) after.push_back(also_after);
    t = the_device().submit(std::move(work), after, device);
    if (s != nullptr) {
      s->last.store(t, std::memory_order_release);
    } else {
      o.legacy_last[device] = t;
    }
  }
  if (ticket != nullptr) *ticket = t;
  if (synchronous || (the_device().launch_blocking() && !device_queue::on_device_thread())) the_device().wait(t);
  // A synchronous call (cudaMemcpy) waited for the work before it: a kernel
  // that faulted there is its error, as on a GPU, not only the next
  // synchronisation's.
  if (synchronous) return context_error();
  return cudaSuccess;
}

void forget_device_objects(std::uint64_t tree) {
  streams().remove_owned_by_tree(tree);
  events().remove_owned_by_tree(tree);
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  if (in_device_code()) return not_in_device_code("cudaStreamCreateWithPriority");
  if (cudaError_t e = context_error()) return e;
  if (stream == nullptr || (flags & ~unsigned(cudaStreamNonBlocking)) != 0) return set_error(cudaErrorInvalidValue);
  // Out-of-range priorities are clamped, as CUDA does.
  priority = std::min(least_stream_priority, std::max(greatest_stream_priority, priority));
  CUstream_st* s = streams().add(flags, {});
  s->priority = priority;
  *stream = s;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (in_device_code()) {
    // The device runtime's streams are all non-blocking; it requires the flag
    // but (an H100 shows) also takes 0.
    if (stream == nullptr || (flags & ~unsigned(cudaStreamNonBlocking)) != 0) return set_error(cudaErrorInvalidValue);
    *stream = streams().add(flags, running_block());
    return cudaSuccess;
  }
  return cudaStreamCreateWithPriority(stream, flags, least_stream_priority);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (in_device_code()) return not_in_device_code("cudaStreamCreate (use cudaStreamCreateWithFlags with cudaStreamNonBlocking)");
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (in_device_code()) {
    if (stream == nullptr) return set_error(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = check_device_stream(stream, "cudaStreamDestroy")) return e;
  } else if (stream == nullptr || check_host_stream(stream) != cudaSuccess || stream == cudaStreamLegacy ||
             stream == cudaStreamPerThread) {
    return set_error(cudaErrorInvalidResourceHandle);
  }
  // Work already in the stream still runs: a destroyed stream only takes no
  // more. The legacy stream still waits for a blocking stream's last work.
  std::lock_guard lock(order().mutex);
  if (const CUstream_st* s = streams().find(stream); s != nullptr && is_blocking(*s)) {
    order().retired_blocking.emplace_back(s->device, s->last.load(std::memory_order_relaxed));
  }
  streams().remove(stream);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  trace::host_call_scope traced("cudaStreamSynchronize");
  if (in_device_code()) return not_in_device_code("cudaStreamSynchronize");
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  if (invalidate_capture_of(stream)) return set_error(cudaErrorStreamCaptureUnsupported);
  if (!may_wait_for_device("cudaStreamSynchronize")) return set_error(cudaErrorNotPermitted);
  the_device().wait(last_submitted(stream));
  if (cudaError_t e = context_error()) return e;
  return take_deferred_launch_error();
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (in_device_code()) return not_in_device_code("cudaStreamQuery");
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  if (invalidate_capture_of(stream)) return set_error(cudaErrorStreamCaptureUnsupported);
  // Not an error: not recorded as the last error.
  return the_device().finished(last_submitted(stream)) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = in_device_code() ? check_device_stream(stream, "cudaStreamGetFlags")
                                        : set_error(check_host_stream(stream))) {
    return e;
  }
  const CUstream_st* s = streams().find(stream);
  *flags = s != nullptr ? s->flags : 0;
  return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = in_device_code() ? check_device_stream(stream, "cudaStreamGetPriority")
                                        : set_error(check_host_stream(stream))) {
    return e;
  }
  const CUstream_st* s = streams().find(stream);
  *priority = s != nullptr ? s->priority : 0;
  return cudaSuccess;
}

// Stream attributes: the L2 access policy window and the synchronization
// policy are kept and read back (they are hints, with no effect on a CPU);
// the priority is the stream's.
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* value) {
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = set_error(check_host_stream(stream))) return e;
  const CUstream_st* s = streams().find(stream);
  switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: value->accessPolicyWindow = s ? s->access_policy : cudaAccessPolicyWindow{}; break;
    case cudaLaunchAttributeSynchronizationPolicy: value->syncPolicy = s ? s->sync_policy : cudaSyncPolicyAuto; break;
    case cudaLaunchAttributePriority: value->priority = s ? s->priority : 0; break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue* value) {
  if (value == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = set_error(check_host_stream(stream))) return e;
  CUstream_st* s = streams().find(stream);
  switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow:
      if (value->accessPolicyWindow.hitRatio < 0.0f || value->accessPolicyWindow.hitRatio > 1.0f) {
        return set_error(cudaErrorInvalidValue);
      }
      if (s != nullptr) s->access_policy = value->accessPolicyWindow;
      break;
    case cudaLaunchAttributeSynchronizationPolicy:
      if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync) {
        return set_error(cudaErrorInvalidValue);
      }
      if (s != nullptr) s->sync_policy = value->syncPolicy;
      break;
    case cudaLaunchAttributePriority:
      if (s != nullptr) s->priority = std::clamp(value->priority, greatest_stream_priority, least_stream_priority);
      break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Managed memory is visible to every stream on a CPU: attaching only checks.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags) {
  (void)length;
  if (devPtr == nullptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)) {
    return set_error(cudaErrorInvalidValue);
  }
  return set_error(check_host_stream(stream));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = least_stream_priority;
  if (greatestPriority != nullptr) *greatestPriority = greatest_stream_priority;
  return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  if (in_device_code()) return not_in_device_code("cudaLaunchHostFunc");
  if (cudaError_t e = context_error()) return e;
  if (fn == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  // Runs on the device thread once everything before it in the stream has.
  return enqueue(stream, [fn, userData] { fn(userData); }, cudaGraphNodeTypeHost, false, "cudaLaunchHostFunc");
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  if (in_device_code()) return not_in_device_code("cudaStreamAddCallback");
  if (cudaError_t e = context_error()) return e;
  if (callback == nullptr || flags != 0) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  return enqueue(
      stream, [callback, stream, userData] { callback(stream, sticky_error(), userData); }, cudaGraphNodeTypeHost,
      false, "cudaStreamAddCallback");
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (event == nullptr) return set_error(cudaErrorInvalidValue);
  if (in_device_code()) {
    // The device runtime's events order streams; they cannot time.
    if ((flags & cudaEventDisableTiming) == 0) return set_error(cudaErrorInvalidValue);
    *event = events().add(flags, running_block());
    return cudaSuccess;
  }
  if (cudaError_t e = context_error()) return e;
  constexpr unsigned int known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if ((flags & ~known) != 0) return set_error(cudaErrorInvalidValue);
  if ((flags & cudaEventInterprocess) != 0 && (flags & cudaEventDisableTiming) == 0) {
    return set_error(cudaErrorInvalidValue);
  }
  *event = events().add(flags, {});
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (in_device_code()) return not_in_device_code("cudaEventCreate (use cudaEventCreateWithFlags with cudaEventDisableTiming)");
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if (in_device_code()) {
    if (cudaError_t e = check_owned(events().find(event), event, "event", "cudaEventRecord")) return e;
    if (cudaError_t e = check_device_stream(stream, "cudaEventRecord")) return e;
    events().find(event)->recorded = true;
    return cudaSuccess;
  }
  if (cudaError_t e = context_error()) return e;
  if (flags > 1) return set_error(cudaErrorInvalidValue);
  CUevent_st* e = host_event(event);
  if (e == nullptr) return set_error(cudaErrorInvalidResourceHandle, unknown_event);
  if (cudaError_t s = check_host_stream(stream)) return set_error(s, unknown_stream);
  // An event is recorded only by a stream of its own device.
  if (const CUstream_st* s = host_stream_record(stream); (s != nullptr ? s->device : current_device()) != e->device) {
    return set_error(cudaErrorInvalidResourceHandle);
  }
  // In a captured stream an event marks a point of the capture, for other
  // streams to join at.
  if (record_event_in_capture(event, stream)) return cudaSuccess;
  e->recorded = true;
  std::uint64_t t = 0;
  if (cudaError_t r = enqueue(stream, [e] { e->when = std::chrono::steady_clock::now(); }, cudaGraphNodeTypeEmpty,
                              false, "cudaEventRecord", &t)) {
    return r;
  }
  e->ticket.store(t, std::memory_order_release);
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  if (in_device_code()) {
    if (cudaError_t e = check_device_stream(stream, "cudaStreamWaitEvent")) return e;
    if (cudaError_t e = check_owned(events().find(event), event, "event", "cudaStreamWaitEvent")) return e;
    return flags == 0 ? cudaSuccess : set_error(cudaErrorInvalidValue);
  }
  if (cudaError_t e = context_error()) return e;
  if (flags > 1) return set_error(cudaErrorInvalidValue);
  if (host_event(event) == nullptr) return set_error(cudaErrorInvalidResourceHandle, unknown_event);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  if (wait_event_in_capture(stream, event)) return cudaSuccess;
  // The stream's later work follows the event's last record as it is now.
  const std::uint64_t recorded = host_event(event)->ticket.load(std::memory_order_acquire);
  if (the_device().finished(recorded)) return cudaSuccess;
  return enqueue(stream, [] {}, cudaGraphNodeTypeEmpty, false, "cudaStreamWaitEvent", nullptr, recorded);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  trace::host_call_scope traced("cudaEventSynchronize");
  if (in_device_code()) return not_in_device_code("cudaEventSynchronize");
  const CUevent_st* e = host_event(event);
  if (e == nullptr) return set_error(cudaErrorInvalidResourceHandle, unknown_event);
  if (!may_wait_for_device("cudaEventSynchronize")) return set_error(cudaErrorNotPermitted);
  the_device().wait(e->ticket.load(std::memory_order_acquire));
  return context_error();
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (in_device_code()) return not_in_device_code("cudaEventQuery");
  if (cudaError_t e = context_error()) return e;
  const CUevent_st* e = host_event(event);
  if (e == nullptr) return set_error(cudaErrorInvalidResourceHandle, unknown_event);
  // Not an error: not recorded as the last error. An event never recorded has completed.
  return the_device().finished(e->ticket.load(std::memory_order_acquire)) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (in_device_code()) return not_in_device_code("cudaEventElapsedTime");
  if (cudaError_t e = context_error()) return e;
  if (ms == nullptr) return set_error(cudaErrorInvalidValue);
  const CUevent_st* a = host_event(start);
  const CUevent_st* b = host_event(end);
  if (a == nullptr || b == nullptr) return set_error(cudaErrorInvalidResourceHandle, unknown_event);
  if (((a->flags | b->flags) & cudaEventDisableTiming) != 0) {
    return set_error(cudaErrorInvalidResourceHandle, "an event made with cudaEventDisableTiming has no time");
  }
  if (!a->recorded || !b->recorded) {
    return set_error(cudaErrorInvalidResourceHandle, "an event that was never recorded has no time");
  }
  if (!the_device().finished(a->ticket.load(std::memory_order_acquire)) ||
      !the_device().finished(b->ticket.load(std::memory_order_acquire))) {
    return set_error(cudaErrorNotReady);
  }
  *ms = std::chrono::duration<float, std::milli>(b->when - a->when).count();
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (in_device_code()) {
    if (cudaError_t e = check_owned(events().find(event), event, "event", "cudaEventDestroy")) return e;
  } else if (host_event(event) == nullptr) {
    return set_error(cudaErrorInvalidResourceHandle);
  }
  events().remove(event);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  if (in_device_code()) {
    if (cudaError_t e = check_device_stream(stream, "cudaMemcpyAsync")) return e;
    return enqueue_device_memory_operation(dst, src, 0, count, kind, stream);
  }
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  return copy_in_stream(dst, src, count, kind, stream);
}

cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream) {
  if (in_device_code()) {
    if (cudaError_t e = check_device_stream(stream, "cudaMemsetAsync")) return e;
    return enqueue_device_memory_operation(ptr, nullptr, value, count, cudaMemcpyDeviceToDevice, stream);
  }
  if (cudaError_t e = context_error()) return e;
  if (cudaError_t e = check_host_stream(stream)) return set_error(e, unknown_stream);
  return set_in_stream(ptr, value, count, stream);
}

}  // extern "C"
