// cudaGraphAddNode (every kind of node through one call), child-graph nodes,
// and conditional nodes with their handles. A conditional or child-graph
// node's work is made when its graph is instantiated, from its body graphs
// as they are then (a conditional node's bodies are filled after the node is
// made); it runs them inside the graph's launch, between the nodes before
// and after it, as the graph's other nodes run.
#include <memory>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "api/graph_types.hpp"
#include "runtime/errors.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {
namespace {

std::function<void()> run_all(std::vector<std::function<void()>> works) {
  return [works = std::move(works)] {
    for (const auto& work : works) work();
  };
}

// A body graph's work: its handles' reset first, as for a graph launch.
std::function<void()> body_work(cudaGraph_t body) {
  std::vector<std::function<void()>> works;
  if (std::function<void()> reset = reset_conditionals(body)) works.push_back(std::move(reset));
  for (const auto& node : body->nodes) {
    if (std::function<void()> work = node_work(*node)) works.push_back(std::move(work));
  }
  return run_all(std::move(works));
}

// The handle made for `graph` (the graph the conditional node goes into),
// kept alive by the node's work; null when it is not one of them.
std::shared_ptr<conditional_handle> find_handle(cudaGraph_t graph, cudaGraphConditionalHandle handle) {
  if (!graph->conditionals) return nullptr;
  for (const auto& h : graph->conditionals->handles) {
    if (reinterpret_cast<cudaGraphConditionalHandle>(h.get()) == handle) {
      return std::shared_ptr<conditional_handle>(graph->conditionals, h.get());
    }
  }
  return nullptr;
}

cudaError_t add_conditional_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, cudaConditionalNodeParams& params) {
  if (graph == nullptr) return set_error(cudaErrorInvalidValue);
  std::shared_ptr<conditional_handle> handle = find_handle(graph, params.handle);
  const bool size_ok = params.type == cudaGraphCondTypeIf     ? params.size == 1 || params.size == 2
                       : params.type == cudaGraphCondTypeWhile ? params.size == 1
                                                               : params.type == cudaGraphCondTypeSwitch && params.size > 0;
  if (handle == nullptr || !size_ok) {
    report("cudaGraphAddNode: a conditional node needs a handle made for this graph "
           "(cudaGraphConditionalHandleCreate) and a size of 1 (While), 1 or 2 (If) or more than 0 (Switch); it "
           "was given type {} and size {}. It returns cudaErrorInvalidValue.",
           static_cast<int>(params.type), params.size);
    return set_error(cudaErrorInvalidValue);
  }
  if (cudaError_t e = cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies)) return e;
  CUgraphNode_st& node = **pGraphNode;
  node.type = cudaGraphNodeTypeConditional;
  for (unsigned int i = 0; i < params.size; ++i) {
    node.bodies.push_back(std::make_shared<CUgraph_st>());
    node.body_handles.push_back(node.bodies.back().get());
  }
  const cudaGraphConditionalNodeType type = params.type;
  node.make_work = [handle, type](const CUgraphNode_st& self) -> std::function<void()> {
    std::vector<std::function<void()>> bodies;
    for (const auto& body : self.bodies) bodies.push_back(body_work(body.get()));
    return [handle, type, bodies = std::move(bodies)] {
      switch (type) {
        case cudaGraphCondTypeIf:
          if (handle->value.load() != 0) bodies[0]();
          else if (bodies.size() == 2) bodies[1]();
          break;
        case cudaGraphCondTypeWhile:
          while (handle->value.load() != 0) bodies[0]();
          break;
        case cudaGraphCondTypeSwitch:
          if (const unsigned int value = handle->value.load(); value < bodies.size()) bodies[value]();
          break;
      }
    };
  };
  params.phGraph_out = node.body_handles.data();  // valid as long as the node, as CUDA promises
  return cudaSuccess;
}

}  // namespace

std::function<void()> node_work(const CUgraphNode_st& node) {
  return node.make_work ? node.make_work(node) : node.work;
}

bool has_memory_nodes_in_bodies(cudaGraph_t graph) {
  for (const auto& node : graph->nodes) {
    for (const auto& body : node->bodies) {
      for (const auto& inner : body->nodes) {
        if (node->type == cudaGraphNodeTypeConditional &&
            (inner->type == cudaGraphNodeTypeMemAlloc || inner->type == cudaGraphNodeTypeMemFree)) {
          return true;
        }
      }
      if (has_memory_nodes_in_bodies(body.get())) return true;
    }
  }
  return false;
}

std::function<void()> reset_conditionals(cudaGraph_t graph) {
  if (!graph->conditionals) return {};
  return [conditionals = graph->conditionals] {
    for (const auto& handle : conditionals->handles) {
      if (handle->reset_each_launch) handle->value.store(handle->default_value);
    }
  };
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" {

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags) {
  if (pHandle_out == nullptr || graph == nullptr || (flags & ~unsigned{cudaGraphCondAssignDefault}) != 0) {
    return set_error(cudaErrorInvalidValue);
  }
  if (!graph->conditionals) graph->conditionals = std::make_shared<graph_conditionals>();
  auto handle = std::make_unique<conditional_handle>();
  handle->value.store(defaultLaunchValue);
  handle->default_value = defaultLaunchValue;
  handle->reset_each_launch = (flags & cudaGraphCondAssignDefault) != 0;
  *pHandle_out = reinterpret_cast<cudaGraphConditionalHandle>(handle.get());
  graph->conditionals->handles.push_back(std::move(handle));
  return cudaSuccess;
}

void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) {
  reinterpret_cast<conditional_handle*>(handle)->value.store(value);
}

// CUDA copies the child graph into the node (cudaGraphChildGraphOwnershipClone).
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph) {
  if (childGraph == nullptr) return set_error(cudaErrorInvalidValue);
  for (const auto& node : childGraph->nodes) {
    if (node->type == cudaGraphNodeTypeMemAlloc || node->type == cudaGraphNodeTypeMemFree) {
      report("cudaGraphAddChildGraphNode: the child graph has memory allocation or free nodes, which CUDA does not "
             "allow in a child graph. It returns cudaErrorNotSupported.");
      return set_error(cudaErrorNotSupported);
    }
  }
  cudaGraph_t copy = nullptr;
  if (cudaError_t e = cudaGraphClone(&copy, childGraph)) return e;
  if (cudaError_t e = cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies)) {
    cudaGraphDestroy(copy);
    return e;
  }
  CUgraphNode_st& node = **pGraphNode;
  node.type = cudaGraphNodeTypeGraph;
  node.bodies.emplace_back(copy);
  node.make_work = [](const CUgraphNode_st& self) { return body_work(self.bodies.front().get()); };
  return cudaSuccess;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                             const cudaGraphEdgeData*, size_t numDependencies, cudaGraphNodeParams* nodeParams) {
  if (nodeParams == nullptr) return set_error(cudaErrorInvalidValue);
  cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel:
      return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p.kernel);
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
      return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p.memset);
    case cudaGraphNodeTypeHost:
      return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p.host);
    case cudaGraphNodeTypeGraph:
      return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, p.graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeMemAlloc:
      return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &p.alloc);
    case cudaGraphNodeTypeMemFree:
      return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, p.free.dptr);
    case cudaGraphNodeTypeConditional:
      return add_conditional_node(pGraphNode, graph, pDependencies, numDependencies, p.conditional);
    default:
      report("cudaGraphAddNode: nodes of type {} (event record or wait, external semaphores) are not supported by "
             "cusim; record the event with cudaEventRecord in a captured stream instead. It returns "
             "cudaErrorNotSupported.",
             static_cast<int>(p.type));
      return set_error(cudaErrorNotSupported);
  }
}

}  // extern "C"
