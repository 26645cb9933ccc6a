// The graph objects behind cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t,
// shared by the files that build and run them: graphs.cpp (capture, the
// node kinds that record a stream operation, instantiation and launch),
// graph_nodes.cpp (cudaGraphAddNode, child graphs, conditional nodes) and
// graph_memory.cpp (allocation nodes' memory).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "api/graph_memory.hpp"

namespace cusim::detail {

// A conditional handle (cudaGraphConditionalHandleCreate): the value the
// kernels of a graph set with cudaGraphSetConditional and its conditional
// nodes read. cudaGraphConditionalHandle is its address.
struct conditional_handle {
  std::atomic<unsigned int> value;
  unsigned int default_value;
  bool reset_each_launch;  // cudaGraphCondAssignDefault
};

// The handles made for one graph, shared with its executable graphs (which
// may outlive it).
struct graph_conditionals {
  std::vector<std::unique_ptr<conditional_handle>> handles;
};

}  // namespace cusim::detail

struct CUgraphNode_st {
  cudaGraphNodeType type;
  std::function<void()> work;  // empty for an empty node
  std::vector<cudaGraphNode_t> dependencies;
  void* memory = nullptr;  // what an allocation node allocates, or a free node frees
  // Conditional and child-graph nodes: their work is made when the graph is
  // instantiated, from their body graphs as they are then.
  std::function<std::function<void()>(const CUgraphNode_st& self)> make_work;
  std::vector<std::shared_ptr<CUgraph_st>> bodies;  // a conditional node's, or a child graph node's copy
  std::vector<cudaGraph_t> body_handles;             // a conditional node's bodies, as phGraph_out gives them
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order added: topological
  std::shared_ptr<cusim::detail::graph_allocations> allocations =
      std::make_shared<cusim::detail::graph_allocations>();
  std::shared_ptr<cusim::detail::graph_conditionals> conditionals;  // made with the first handle
};

struct CUgraphExec_st {
  // The nodes with work, in order, by the handles of the graph it was made
  // from and of the graphs it was updated from (only compared: those graphs
  // may be destroyed), and their types.
  std::vector<std::vector<cudaGraphNode_t>> handles;
  std::vector<cudaGraphNodeType> types;
  std::vector<std::function<void()>> works;
  std::function<void()> prologue;  // first at each launch: conditional handles back to their defaults
  std::shared_ptr<cusim::detail::graph_allocations> allocations;
  std::vector<cusim::detail::graph_memory_step> memory_steps;  // its allocation and free nodes, in order
  bool auto_free = false;  // cudaGraphInstantiateFlagAutoFreeOnLaunch
};

namespace cusim::detail {

// What a node does when its graph runs, made now (graph_nodes.cpp): its
// recorded work, or for a conditional or child-graph node the work built
// from its bodies; empty for a node that does nothing.
std::function<void()> node_work(const CUgraphNode_st& node);

// Whether a conditional node of `graph` (or of a graph within) has memory
// allocation or free nodes in a body, which cusim does not run there.
bool has_memory_nodes_in_bodies(cudaGraph_t graph);

// The work that starts each launch of `graph`: its conditional handles made
// with cudaGraphCondAssignDefault go back to their default value. Empty
// when there are none.
std::function<void()> reset_conditionals(cudaGraph_t graph);

}  // namespace cusim::detail
