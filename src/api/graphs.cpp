// Graphs. A node holds the same work the device queue would run (a kernel
// launch, a copy, a set, a host function); a graph launch queues one piece
// of work that runs every node in the order they were added. That order is
// topological (a node depends only on earlier nodes), so it respects every
// dependency; nodes never run concurrently, as the device queue runs one
// thing at a time.
//
// Capture: while a stream is captured, its host work becomes nodes, each
// depending on the stream's previous one. An event recorded in it marks the
// current node; another stream waiting for that event joins the capture from
// there, and the capture ends with the stream that began it.
#include "api/graphs.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <cusim/detail/kernel_call.hpp>
#include <cusim/profile.hpp>

#include "api/graph_memory.hpp"
#include "api/graph_types.hpp"
#include "api/memory.hpp"
#include "api/streams.hpp"
#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {

struct capture {
  cudaGraph_t graph;
  cudaStream_t origin;
  bool invalidated = false;
  bool into_existing = false;  // cudaStreamBeginCaptureToGraph: the graph is the caller's
  unsigned long long id = 0;   // unique per capture, as cudaStreamGetCaptureInfo reports it
};

struct capture_point {
  capture* owner;
  cudaGraphNode_t last;  // the newest node of the stream, or null before the first
  cudaGraphNode_t reported = nullptr;  // what cudaStreamGetCaptureInfo's dependencies point to
};

struct graph_state {
  std::mutex mutex;
  std::unordered_map<cudaStream_t, capture_point> capturing;  // streams in a capture
  std::unordered_map<cudaEvent_t, capture_point> event_points;
  std::vector<std::unique_ptr<capture>> captures;
};

graph_state& state() {
  static graph_state& s = *new graph_state;  // never destroyed: see device_queue.hpp
  return s;
}

// A node being added with cudaGraphAdd*Node on this thread: the launch or
// copy that follows is recorded into it.
struct node_under_construction {
  cudaGraph_t graph = nullptr;
  std::vector<cudaGraphNode_t> dependencies;
  cudaGraphNode_t made = nullptr;
};
thread_local node_under_construction* building = nullptr;

cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, std::function<void()> work,
                         std::vector<cudaGraphNode_t> dependencies) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->work = std::move(work);
  node->dependencies = std::move(dependencies);
  cudaGraphNode_t handle = node.get();
  graph->nodes.push_back(std::move(node));
  return handle;
}

// One node that comes after all of `nodes`: none for none, the node itself
// for one, otherwise a new empty node depending on them all.
cudaGraphNode_t after_all(cudaGraph_t graph, std::vector<cudaGraphNode_t> nodes) {
  if (nodes.empty()) return nullptr;
  if (nodes.size() == 1) return nodes.front();
  return add_node(graph, cudaGraphNodeTypeEmpty, {}, std::move(nodes));
}

unsigned long long next_capture_id = 1;  // with the state's mutex held

std::vector<graph_memory_step> memory_steps_of(cudaGraph_t graph) {
  std::vector<graph_memory_step> steps;
  for (const auto& node : graph->nodes) {
    if (node->memory != nullptr) steps.push_back({node->type == cudaGraphNodeTypeMemAlloc, node->memory});
  }
  return steps;
}

// A captured stream's next node, after its newest one. With the state's mutex held.
cudaGraphNode_t add_captured_node(capture_point& point, cudaGraphNodeType type, std::function<void()> work) {
  std::vector<cudaGraphNode_t> after;
  if (point.last != nullptr) after.push_back(point.last);
  point.last = add_node(point.owner->graph, type, std::move(work), std::move(after));
  return point.last;
}

bool owns(cudaGraph_t graph, cudaGraphNode_t node) {
  return std::any_of(graph->nodes.begin(), graph->nodes.end(), [&](const auto& n) { return n.get() == node; });
}

// Builds one node through `make`, which issues the work the node records.
template <class Make>
cudaError_t build_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                       size_t numDependencies, Make make) {
  if (pGraphNode == nullptr || graph == nullptr || (numDependencies > 0 && pDependencies == nullptr)) {
    return set_error(cudaErrorInvalidValue);
  }
  node_under_construction node{graph, {pDependencies, pDependencies + numDependencies}, nullptr};
  for (cudaGraphNode_t d : node.dependencies) {
    if (!owns(graph, d)) return set_error(cudaErrorInvalidValue);
  }
  building = &node;
  const cudaError_t e = make();
  building = nullptr;
  if (e != cudaSuccess) return e;
  if (node.made == nullptr) return set_error(cudaErrorInvalidValue);
  *pGraphNode = node.made;
  return cudaSuccess;
}

}  // namespace

bool legacy_work_joins_a_capture(cudaStream_t stream);

bool record_into_graph(cudaStream_t stream, std::function<void()>& work, cudaGraphNodeType type, bool synchronous,
                       cudaError_t& error) {
  error = cudaSuccess;
  if (building != nullptr) {
    building->made = add_node(building->graph, type, std::move(work), building->dependencies);
    return true;
  }
  if (legacy_work_joins_a_capture(stream)) {
    error = cudaErrorStreamCaptureImplicit;
    return true;
  }
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return false;
  if (synchronous) {
    error = cudaErrorStreamCaptureUnsupported;  // a synchronous call cannot be part of a graph
    return true;
  }
  add_captured_node(it->second, type, std::move(work));
  return true;
}

bool allocate_in_capture(cudaStream_t stream, size_t bytes, void** address, cudaError_t& error) {
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return false;
  void* memory = it->second.owner->graph->allocations->reserve(bytes);
  error = memory != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
  if (memory == nullptr) return true;
  add_captured_node(it->second, cudaGraphNodeTypeMemAlloc, {})->memory = memory;
  *address = memory;
  return true;
}

bool free_in_capture(cudaStream_t stream, void* address) {
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return false;
  add_captured_node(it->second, cudaGraphNodeTypeMemFree, {})->memory = address;
  return true;
}

bool invalidate_capture_of(cudaStream_t stream) {
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return false;
  it->second.owner->invalidated = true;
  return true;
}

// The legacy default stream waits for blocking streams: work in it while a
// blocking stream is captured would join it to the capture, which CUDA
// refuses (cudaErrorStreamCaptureImplicit) and which invalidates the capture.
bool legacy_work_joins_a_capture(cudaStream_t stream) {
  if (stream != nullptr && stream != cudaStreamLegacy) return false;
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  bool joins = false;
  for (auto& [captured, point] : s.capturing) {
    unsigned int flags = 0;
    cudaStreamGetFlags(captured, &flags);
    if ((flags & cudaStreamNonBlocking) == 0) {
      point.owner->invalidated = true;
      joins = true;
    }
  }
  return joins;
}

bool record_event_in_capture(cudaEvent_t event, cudaStream_t stream) {
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) {
    s.event_points.erase(event);
    return false;
  }
  s.event_points[event] = it->second;
  return true;
}

bool wait_event_in_capture(cudaStream_t stream, cudaEvent_t event) {
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto point = s.event_points.find(event);
  if (point == s.event_points.end()) return false;
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) {
    s.capturing[stream] = point->second;  // the stream joins the capture from the event's node
    return true;
  }
  // Already in the capture: its next node also waits for the event's. Nodes
  // run in the order added, so joining the two chains needs no more than an
  // empty node after both.
  std::vector<cudaGraphNode_t> after;
  if (it->second.last != nullptr) after.push_back(it->second.last);
  if (point->second.last != nullptr) after.push_back(point->second.last);
  it->second.last = add_node(it->second.owner->graph, cudaGraphNodeTypeEmpty, {}, std::move(after));
  return true;
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData*, size_t numDependencies,
                                          cudaStreamCaptureMode mode) {
  if (cudaError_t e = context_error()) return e;
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return set_error(cudaErrorInvalidValue);
  if (numDependencies > 0 && (dependencies == nullptr || graph == nullptr)) return set_error(cudaErrorInvalidValue);
  // The legacy default stream synchronises with others: it cannot be captured.
  if (stream == nullptr || stream == cudaStreamLegacy) return set_error(cudaErrorStreamCaptureUnsupported);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  if (s.capturing.count(stream) != 0) return set_error(cudaErrorIllegalState);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!owns(graph, dependencies[i])) return set_error(cudaErrorInvalidValue);
  }
  const bool into_existing = graph != nullptr;
  auto& c = *s.captures.emplace_back(
      std::make_unique<capture>(capture{into_existing ? graph : new CUgraph_st, stream, false, into_existing}));
  c.id = next_capture_id++;
  s.capturing[stream] =
      capture_point{&c, after_all(c.graph, {dependencies, dependencies + numDependencies})};
  return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return cudaStreamBeginCaptureToGraph(stream, nullptr, nullptr, nullptr, 0, mode);
}

// The stream's dependencies are the one node its next work will follow
// (cusim joins several into an empty node), or none.
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out, const cudaGraphEdgeData** edgeData_out,
                                     size_t* numDependencies_out) {
  if (captureStatus_out == nullptr) return set_error(cudaErrorInvalidValue);
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  const bool active = it != s.capturing.end();
  *captureStatus_out = active ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!active) return cudaSuccess;
  // Valid until the stream's next capture call, as CUDA promises.
  capture_point& point = it->second;
  point.reported = point.last;
  if (id_out != nullptr) *id_out = point.owner->id;
  if (graph_out != nullptr) *graph_out = point.owner->graph;
  if (dependencies_out != nullptr) *dependencies_out = &point.reported;
  if (edgeData_out != nullptr) *edgeData_out = nullptr;  // every edge is a full dependency
  if (numDependencies_out != nullptr) *numDependencies_out = point.reported != nullptr ? 1 : 0;
  return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData*, size_t numDependencies,
                                                unsigned int flags) {
  if ((numDependencies > 0 && dependencies == nullptr) ||
      (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)) {
    return set_error(cudaErrorInvalidValue);
  }
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return set_error(cudaErrorIllegalState);
  capture_point& point = it->second;
  std::vector<cudaGraphNode_t> nodes(dependencies, dependencies + numDependencies);
  for (cudaGraphNode_t node : nodes) {
    if (!owns(point.owner->graph, node)) return set_error(cudaErrorInvalidValue);
  }
  if (flags == cudaStreamAddCaptureDependencies && point.last != nullptr) nodes.push_back(point.last);
  point.last = after_all(point.owner->graph, std::move(nodes));
  return cudaSuccess;
}

// pGraph may be null for a capture into the caller's graph.
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  // An invalidated capture's graph goes after the lock is released (declared
  // first, destroyed last): a graph's destruction may call into the runtime.
  std::unique_ptr<CUgraph_st> abandoned;
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  auto it = s.capturing.find(stream);
  if (it == s.capturing.end()) return set_error(cudaErrorIllegalState);
  capture* c = it->second.owner;
  if (c->origin != stream) return set_error(cudaErrorStreamCaptureUnmatched);
  if (pGraph == nullptr && !c->into_existing) return set_error(cudaErrorInvalidValue);
  const bool invalidated = c->invalidated;
  // Every stream of the capture leaves it with the stream that began it.
  std::erase_if(s.capturing, [&](const auto& entry) { return entry.second.owner == c; });
  std::erase_if(s.event_points, [&](const auto& entry) { return entry.second.owner == c; });
  if (pGraph != nullptr) *pGraph = invalidated ? nullptr : c->graph;
  if (invalidated && !c->into_existing) abandoned.reset(c->graph);
  std::erase_if(s.captures, [&](const auto& owned) { return owned.get() == c; });
  return invalidated ? set_error(cudaErrorStreamCaptureInvalidated) : cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  if (pCaptureStatus == nullptr) return set_error(cudaErrorInvalidValue);
  graph_state& s = state();
  std::lock_guard lock(s.mutex);
  *pCaptureStatus = s.capturing.count(stream) != 0 ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (pGraph == nullptr || flags != 0) return set_error(cudaErrorInvalidValue);
  *pGraph = new CUgraph_st;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaKernelNodeParams* pNodeParams) {
  if (pNodeParams == nullptr) return set_error(cudaErrorInvalidValue);
  return build_node(pGraphNode, graph, pDependencies, numDependencies, [&] {
    // The same path as cudaLaunchKernel: the launch is recorded into the node.
    return cudaLaunchKernel(pNodeParams->func, pNodeParams->gridDim, pNodeParams->blockDim,
                            pNodeParams->kernelParams, pNodeParams->sharedMemBytes, nullptr);
  });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, cudaMemcpyKind kind) {
  return build_node(pGraphNode, graph, pDependencies, numDependencies,
                    [&] { return copy_in_stream(dst, src, count, kind, nullptr); });
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemsetParams* p) {
  if (p == nullptr || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || p->dst == nullptr ||
      (p->height > 1 && p->pitch < p->width * p->elementSize)) {
    return set_error(cudaErrorInvalidValue);
  }
  const cudaMemsetParams params = *p;
  return build_node(pGraphNode, graph, pDependencies, numDependencies, [&] {
    std::function<void()> work = [params] {
      for (size_t row = 0; row < std::max<size_t>(params.height, 1); ++row) {
        char* line = static_cast<char*>(params.dst) + row * params.pitch;
        for (size_t i = 0; i < params.width; ++i) {
          std::memcpy(line + i * params.elementSize, &params.value, params.elementSize);  // little-endian
        }
        note_written(line, params.width * params.elementSize);
      }
    };
    cudaError_t error = cudaSuccess;
    record_into_graph(nullptr, work, cudaGraphNodeTypeMemset, false, error);
    return error;
  });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, const cudaHostNodeParams* pNodeParams) {
  if (pNodeParams == nullptr || pNodeParams->fn == nullptr) return set_error(cudaErrorInvalidValue);
  return build_node(pGraphNode, graph, pDependencies, numDependencies,
                    [&] { return cudaLaunchHostFunc(nullptr, pNodeParams->fn, pNodeParams->userData); });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                  size_t numDependencies) {
  return build_node(pGraphNode, graph, pDependencies, numDependencies, [&] {
    std::function<void()> nothing;
    cudaError_t error = cudaSuccess;
    record_into_graph(nullptr, nothing, cudaGraphNodeTypeEmpty, false, error);
    return error;
  });
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  if (graph == nullptr || numNodes == nullptr) return set_error(cudaErrorInvalidValue);
  if (nodes != nullptr) {
    const size_t n = std::min(*numNodes, graph->nodes.size());
    for (size_t i = 0; i < n; ++i) nodes[i] = graph->nodes[i].get();
  }
  *numNodes = graph->nodes.size();
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  if (node == nullptr || pType == nullptr) return set_error(cudaErrorInvalidValue);
  *pType = node->type;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  if (pGraphExec == nullptr || graph == nullptr) return set_error(cudaErrorInvalidValue);
  // Upload, device launch and priority have no effect here.
  if (has_memory_nodes_in_bodies(graph)) {
    report("cudaGraphInstantiate: a conditional node's body graph has memory allocation or free nodes, which cusim "
           "does not run there. It returns cudaErrorNotSupported.");
    return set_error(cudaErrorNotSupported);
  }
  if (cudaError_t e = graph->allocations->add_executable(graph)) {
    report("cudaGraphInstantiate: this graph has allocation nodes and an executable graph made from it{} still "
           "exists; CUDA allows one at a time (destroy it first with cudaGraphExecDestroy). It returns {}.",
           e == cudaErrorNotSupported ? "" : " (or from the graph it was cloned from)", cudaGetErrorName(e));
    return set_error(e);
  }
  auto* exec = new CUgraphExec_st;
  exec->allocations = graph->allocations;
  exec->memory_steps = memory_steps_of(graph);
  exec->auto_free = (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0;
  exec->prologue = reset_conditionals(graph);
  for (const auto& node : graph->nodes) {
    std::function<void()> work = node_work(*node);
    if (!work) continue;
    exec->handles.push_back({node.get()});
    exec->types.push_back(node->type);
    exec->works.push_back(std::move(work));
  }
  *pGraphExec = exec;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (graphExec == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  std::vector<void*> release_after;
  if (cudaError_t e = launch_graph_memory(graphExec->memory_steps, graphExec->auto_free, release_after)) {
    report("cudaGraphLaunch: an allocation node of this graph still holds the memory an earlier launch allocated "
           "(free it first: a free node, cudaFree or cudaFreeAsync; or instantiate with "
           "cudaGraphInstantiateFlagAutoFreeOnLaunch), or one of its free nodes frees memory that is not allocated. "
           "It returns {}.",
           cudaGetErrorName(e));
    return set_error(e);
  }
  // The executable graph may be destroyed before this runs: the work copies it.
  std::function<void()> run = [prologue = graphExec->prologue, works = graphExec->works,
                                release_after = std::move(release_after)] {
    if (prologue) prologue();
    for (const auto& work : works) work();
    release_graph_memory(release_after);
  };
  return enqueue(stream, std::move(run), cudaGraphNodeTypeGraph, false, "cudaGraphLaunch");
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (graphExec == nullptr) return set_error(cudaErrorInvalidValue);
  graphExec->allocations->remove_executable();
  delete graphExec;
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (graph == nullptr) return set_error(cudaErrorInvalidValue);
  delete graph;  // its memory goes with the last executable graph made from it
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemcpy3DParms* pCopyParams) {
  if (pCopyParams == nullptr) return set_error(cudaErrorInvalidValue);
  const cudaMemcpy3DParms params = *pCopyParams;
  return build_node(pGraphNode, graph, pDependencies, numDependencies,
                    [&] { return cudaMemcpy3DAsync(&params, nullptr); });
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams) {
  if (nodeParams == nullptr || nodeParams->bytesize == 0 || graph == nullptr) return set_error(cudaErrorInvalidValue);
  const cudaError_t e = build_node(pGraphNode, graph, pDependencies, numDependencies, [&] {
    std::function<void()> nothing;
    cudaError_t error = cudaSuccess;
    record_into_graph(nullptr, nothing, cudaGraphNodeTypeMemAlloc, false, error);
    return error;
  });
  if (e != cudaSuccess) return e;
  void* memory = graph->allocations->reserve(nodeParams->bytesize);
  if (memory == nullptr) {
    graph->nodes.pop_back();
    *pGraphNode = nullptr;
    return set_error(cudaErrorMemoryAllocation);
  }
  (*pGraphNode)->memory = memory;
  nodeParams->dptr = memory;
  return cudaSuccess;
}

// The memory is freed when the node runs, as part of its graph's launch.
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dptr) {
  if (dptr == nullptr || graph == nullptr) return set_error(cudaErrorInvalidValue);
  const cudaError_t e = build_node(pGraphNode, graph, pDependencies, numDependencies, [&] {
    std::function<void()> nothing;
    cudaError_t error = cudaSuccess;
    record_into_graph(nullptr, nothing, cudaGraphNodeTypeMemFree, false, error);
    return error;
  });
  if (e == cudaSuccess) (*pGraphNode)->memory = dptr;
  return e;
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  if (pGraphClone == nullptr || originalGraph == nullptr) return set_error(cudaErrorInvalidValue);
  auto* clone = new CUgraph_st;
  std::unordered_map<cudaGraphNode_t, cudaGraphNode_t> copy_of;
  for (const auto& node : originalGraph->nodes) {
    auto& copy = clone->nodes.emplace_back(std::make_unique<CUgraphNode_st>(*node));
    for (auto& dependency : copy->dependencies) dependency = copy_of.at(dependency);
    copy_of[node.get()] = copy.get();
  }
  for (auto& copy : clone->nodes) {
    for (auto& body : copy->bodies) {  // a conditional or child-graph node's graphs are its own
      cudaGraph_t body_clone = nullptr;
      cudaGraphClone(&body_clone, body.get());
      body.reset(body_clone);
    }
  }
  clone->allocations = originalGraph->allocations;  // the same nodes hand out the same addresses
  clone->conditionals = originalGraph->conditionals;
  *pGraphClone = clone;
  return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (cudaError_t e = context_error()) return e;
  if (graphExec == nullptr) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_host_stream(stream)) return set_error(e);
  return cudaSuccess;  // nothing to move to a device
}

// The executable graph takes the graph's work, node for node, when both have
// the same nodes of the same types; otherwise it is left as it was.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo) {
  if (hGraphExec == nullptr || hGraph == nullptr) return set_error(cudaErrorInvalidValue);
  std::vector<cudaGraphNode_t> nodes;
  for (const auto& node : hGraph->nodes) {
    if (node->work || node->make_work) nodes.push_back(node.get());
  }
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;
  cudaGraphNode_t error_node = nullptr;
  if (nodes.size() != hGraphExec->types.size()) {
    result = cudaGraphExecUpdateErrorTopologyChanged;
  } else {
    for (size_t i = 0; i < nodes.size() && result == cudaGraphExecUpdateSuccess; ++i) {
      if (nodes[i]->type != hGraphExec->types[i]) {
        result = cudaGraphExecUpdateErrorNodeTypeChanged;
        error_node = nodes[i];
      }
    }
  }
  // A graph with allocation nodes has one executable graph at a time.
  const bool other_allocations = hGraphExec->allocations != hGraph->allocations;
  if (result == cudaGraphExecUpdateSuccess && other_allocations &&
      hGraph->allocations->add_executable(hGraph) != cudaSuccess) {
    result = cudaGraphExecUpdateErrorNotSupported;
  }
  if (resultInfo != nullptr) *resultInfo = {result, error_node, nullptr};
  if (result != cudaGraphExecUpdateSuccess) return set_error(cudaErrorGraphExecUpdateFailure);
  if (other_allocations) {
    hGraphExec->allocations->remove_executable();
    hGraphExec->allocations = hGraph->allocations;
  }
  hGraphExec->memory_steps = memory_steps_of(hGraph);
  for (size_t i = 0; i < nodes.size(); ++i) {
    hGraphExec->works[i] = node_work(*nodes[i]);
    hGraphExec->handles[i].push_back(nodes[i]);
  }
  return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams) {
  if (hGraphExec == nullptr || node == nullptr || pNodeParams == nullptr) return set_error(cudaErrorInvalidValue);
  const auto at = std::find_if(hGraphExec->handles.begin(), hGraphExec->handles.end(), [&](const auto& handles) {
    return std::find(handles.begin(), handles.end(), node) != handles.end();
  });
  const auto index = static_cast<size_t>(at - hGraphExec->handles.begin());
  if (at == hGraphExec->handles.end() || hGraphExec->types[index] != cudaGraphNodeTypeKernel) {
    return set_error(cudaErrorInvalidValue);
  }
  // The new launch is recorded into a scratch graph; its work replaces the node's.
  CUgraph_st scratch;
  cudaGraphNode_t made = nullptr;
  if (cudaError_t e = cudaGraphAddKernelNode(&made, &scratch, nullptr, 0, pNodeParams)) return e;
  hGraphExec->works[index] = made->work;
  return cudaSuccess;
}

}  // extern "C"
