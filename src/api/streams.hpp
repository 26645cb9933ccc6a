// Streams and events: handles and their checks, for the launch and copy
// paths (streams.cpp has the API itself).
#pragma once
#include <cstdint>
#include <functional>

#include <driver_types.h>

namespace cusim::detail {

// On the host: cudaSuccess for the NULL stream, cudaStreamLegacy,
// cudaStreamPerThread or a live stream created on the host;
// cudaErrorInvalidResourceHandle otherwise.
cudaError_t check_host_stream(cudaStream_t stream);

// In device code: cudaSuccess when the running thread's block may use
// `stream` (the NULL stream, or a stream the block created); otherwise
// reports the misuse, stops the grid and returns cudaErrorInvalidResourceHandle.
cudaError_t check_device_stream(cudaStream_t stream, const char* api);
// The same for a device-side launch of `function`, written as `callee`, at
// file:line (which may also use cudaStreamFireAndForget and
// cudaStreamTailLaunch); the report names the launch (report_name).
cudaError_t check_launch_stream(cudaStream_t stream, const void* function, const char* callee, const char* file,
                                unsigned int line);

// Host streams: the ticket of the last work queued (device_queue.hpp) to
// `stream`.
std::uint64_t last_submitted(cudaStream_t stream);

// Host work in `stream`: queued to the device (device_queue.hpp) after what
// the stream's order asks (and after ticket `also_after`, if not 0), its
// ticket noted as the stream's last (and written to `ticket`), or recorded
// into a graph while the stream is captured (graphs.hpp). `synchronous`
// work is waited for (and cannot be captured). For a kernel launch,
// `kernel_name` names the work in the timeline trace.
cudaError_t enqueue(cudaStream_t stream, std::function<void()> work, cudaGraphNodeType type, bool synchronous,
                    const char* api, std::uint64_t* ticket = nullptr, std::uint64_t also_after = 0,
                    const char* kernel_name = nullptr);

// From then on the NULL stream is the calling host thread's per-thread
// default stream (nvcc --default-stream per-thread), not the legacy one.
// Called before main by programs built with CUDA_API_PER_THREAD_DEFAULT_STREAM.
bool request_per_thread_default_stream();

// After a host launch and everything it launched (launch tree `tree`,
// sched/grid.hpp): its device-side streams and events cannot outlive it.
void forget_device_objects(std::uint64_t tree);

}  // namespace cusim::detail
