// Graphs: host work recorded instead of queued. streams.cpp's enqueue asks
// here first whether the work belongs in a graph.
#pragma once
#include <functional>

#include <cuda_runtime_api.h>

namespace cusim::detail {

// True when `work` for `stream` was recorded into a graph (the stream is
// being captured, or this thread is building a node with cudaGraphAdd*Node);
// `error` then says whether that was allowed (synchronous work cannot be
// captured: cudaErrorStreamCaptureUnsupported).
bool record_into_graph(cudaStream_t stream, std::function<void()>& work, cudaGraphNodeType type, bool synchronous,
                       cudaError_t& error);

// For a call that would wait for `stream` (query, synchronize): not allowed
// while it is captured. Returns true then, having invalidated the capture,
// whose end then fails (cudaErrorStreamCaptureInvalidated).
bool invalidate_capture_of(cudaStream_t stream);

// cudaMallocAsync and cudaFreeAsync in a captured stream: an allocation
// node (its memory a graph allocation, api/graph_memory.hpp, at *address)
// or a free node of `address`. False when `stream` is not being captured.
bool allocate_in_capture(cudaStream_t stream, size_t bytes, void** address, cudaError_t& error);
bool free_in_capture(cudaStream_t stream, void* address);

// Events recorded in a capturing stream mark a point of the capture; a
// stream that waits for one joins the capture (fork and join by events).
bool record_event_in_capture(cudaEvent_t event, cudaStream_t stream);
bool wait_event_in_capture(cudaStream_t stream, cudaEvent_t event);

}  // namespace cusim::detail
