// CUDA 12's graph nodes: cudaGraphAddNode for each kind of node, child
// graphs, conditional nodes (If, If/Else, While with a default value,
// Switch) driven by cudaGraphSetConditional, and a capture that adds a
// conditional node (cudaStreamGetCaptureInfo,
// cudaStreamUpdateCaptureDependencies) whose body is captured with
// cudaStreamBeginCaptureToGraph. The program prints what ran, in order; an
// H200 printed the same (diff.graph_nodes).
#include <cstdio>

#include <cuda_runtime.h>

__device__ int trace[64];
__device__ int trace_length;

__global__ void note(int value) { trace[atomicAdd(&trace_length, 1)] = value; }
__global__ void note_none() { trace[atomicAdd(&trace_length, 1)] = -1; }

// Sets the handle from *counter and counts it down: the body of a while loop.
__global__ void count_down(int* counter, cudaGraphConditionalHandle handle) {
  trace[atomicAdd(&trace_length, 1)] = 100 + *counter;
  if (*counter > 0) --*counter;
  cudaGraphSetConditional(handle, *counter);
}

__global__ void choose(const int* value, cudaGraphConditionalHandle handle) { cudaGraphSetConditional(handle, *value); }

static void print_trace(const char* what) {
  int length = 0, values[64];
  cudaDeviceSynchronize();
  cudaMemcpyFromSymbol(&length, trace_length, sizeof(int));
  cudaMemcpyFromSymbol(values, trace, sizeof(values));
  std::printf("%s:", what);
  for (int i = 0; i < length; ++i) std::printf(" %d", values[i]);
  std::printf("\n");
  const int zero = 0;
  cudaMemcpyToSymbol(trace_length, &zero, sizeof(int));
}

static cudaGraphNode_t add_kernel(cudaGraph_t graph, const cudaGraphNode_t* after, size_t count, void* kernel,
                                  void** args) {
  cudaGraphNodeParams params = {cudaGraphNodeTypeKernel};
  params.kernel.func = kernel;
  params.kernel.gridDim = dim3(1);
  params.kernel.blockDim = dim3(1);
  params.kernel.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  if (cudaGraphAddNode(&node, graph, after, nullptr, count, &params) != cudaSuccess) std::printf("add kernel failed\n");
  return node;
}

static void launch_and_print(cudaGraph_t graph, const char* what) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, 0);
  print_trace(what);
  cudaGraphExecDestroy(exec);
}

// choose(*value) -> conditional(type, size) whose body i notes 10 + i.
static void conditional_graph(cudaGraphConditionalNodeType type, unsigned int size, int* value, int value_now,
                              const char* what) {
  cudaMemcpy(value, &value_now, sizeof(int), cudaMemcpyHostToDevice);
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle handle;
  cudaGraphConditionalHandleCreate(&handle, graph);
  void* choose_args[] = {&value, &handle};
  cudaGraphNode_t chooser = add_kernel(graph, nullptr, 0, reinterpret_cast<void*>(choose), choose_args);
  cudaGraphNodeParams params = {cudaGraphNodeTypeConditional};
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = size;
  cudaGraphNode_t conditional;
  if (cudaGraphAddNode(&conditional, graph, &chooser, nullptr, 1, &params) != cudaSuccess) std::printf("failed\n");
  int body_values[4];
  for (unsigned int i = 0; i < size; ++i) {
    body_values[i] = 10 + static_cast<int>(i);
    void* args[] = {&body_values[i]};
    add_kernel(params.conditional.phGraph_out[i], nullptr, 0, reinterpret_cast<void*>(note), args);
  }
  launch_and_print(graph, what);
  cudaGraphDestroy(graph);
}

int main() {
  int* value;
  cudaMalloc(&value, sizeof(int));

  conditional_graph(cudaGraphCondTypeIf, 1, value, 0, "if, false");
  conditional_graph(cudaGraphCondTypeIf, 1, value, 5, "if, true");
  conditional_graph(cudaGraphCondTypeIf, 2, value, 0, "if/else, false");
  conditional_graph(cudaGraphCondTypeIf, 2, value, 1, "if/else, true");
  conditional_graph(cudaGraphCondTypeSwitch, 3, value, 2, "switch 2 of 3");
  conditional_graph(cudaGraphCondTypeSwitch, 3, value, 7, "switch 7 of 3");

  // A do-while: the handle starts each launch at 1, so the body runs once
  // before its kernel sets the handle from the counter.
  {
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault);
    cudaGraphNodeParams params = {cudaGraphNodeTypeConditional};
    params.conditional.handle = handle;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t loop;
    cudaGraphAddNode(&loop, graph, nullptr, nullptr, 0, &params);
    void* args[] = {&value, &handle};
    add_kernel(params.conditional.phGraph_out[0], nullptr, 0, reinterpret_cast<void*>(count_down), args);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    for (int start : {3, 0}) {
      cudaMemcpy(value, &start, sizeof(int), cudaMemcpyHostToDevice);
      cudaGraphLaunch(exec, 0);
      print_trace(start == 3 ? "do-while from 3" : "do-while from 0");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }

  // A captured graph: note(1), a while node added by hand, note(2); the
  // loop's body captured into its body graph.
  {
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaGraph_t graph;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaStreamCaptureStatus status;
    const cudaGraphNode_t* dependencies;
    size_t count = 0;
    cudaGraph_t capturing;
    cudaStreamGetCaptureInfo(stream, &status, nullptr, &capturing, &dependencies, nullptr, &count);
    std::printf("capture active %d, %zu dependencies\n", status == cudaStreamCaptureStatusActive, count);
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, capturing);
    note<<<1, 1, 0, stream>>>(1);
    choose<<<1, 1, 0, stream>>>(value, handle);
    cudaStreamGetCaptureInfo(stream, &status, nullptr, &capturing, &dependencies, nullptr, &count);
    std::printf("after two launches: %zu dependency\n", count);
    cudaGraphNodeParams params = {cudaGraphNodeTypeConditional};
    params.conditional.handle = handle;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t loop;
    cudaGraphAddNode(&loop, capturing, dependencies, nullptr, count, &params);
    cudaStreamUpdateCaptureDependencies(stream, &loop, nullptr, 1, cudaStreamSetCaptureDependencies);
    note<<<1, 1, 0, stream>>>(2);
    cudaStreamEndCapture(stream, &graph);

    cudaStream_t body_stream;
    cudaStreamCreate(&body_stream);
    cudaStreamBeginCaptureToGraph(body_stream, params.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                  cudaStreamCaptureModeGlobal);
    count_down<<<1, 1, 0, body_stream>>>(value, handle);
    std::printf("end capture into a graph: %s\n", cudaGetErrorName(cudaStreamEndCapture(body_stream, nullptr)));
    const int start = 2;
    cudaMemcpy(value, &start, sizeof(int), cudaMemcpyHostToDevice);
    launch_and_print(graph, "captured while from 2");
    cudaGraphDestroy(graph);
    cudaStreamDestroy(body_stream);
    cudaStreamDestroy(stream);
  }

  // Every other kind through cudaGraphAddNode: memset, host, empty, a child
  // graph (copied when added), memory allocation and free, a kernel node
  // without arguments.
  {
    cudaGraph_t child;
    cudaGraphCreate(&child, 0);
    int seven = 7;
    void* args[] = {&seven};
    add_kernel(child, nullptr, 0, reinterpret_cast<void*>(note), args);
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    cudaGraphNodeParams params = {cudaGraphNodeTypeGraph};
    params.graph.graph = child;
    cudaGraphNode_t child_node, alloc_node, set_node, host_node, empty_node, free_node;
    std::printf("child graph node: %s\n", cudaGetErrorName(cudaGraphAddNode(&child_node, graph, nullptr, nullptr, 0, &params)));
    cudaGraphDestroy(child);  // the node has its own copy
    params = {cudaGraphNodeTypeMemAlloc};
    params.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    params.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    params.alloc.bytesize = 256;
    std::printf("allocation node: %s\n",
                cudaGetErrorName(cudaGraphAddNode(&alloc_node, graph, &child_node, nullptr, 1, &params)));
    int* memory = static_cast<int*>(params.alloc.dptr);
    params = {cudaGraphNodeTypeMemset};
    params.memset.dst = memory;
    params.memset.value = 0x01010101;
    params.memset.elementSize = 4;
    params.memset.width = 64;
    params.memset.height = 1;
    cudaGraphAddNode(&set_node, graph, &alloc_node, nullptr, 1, &params);
    static int host_calls = 0;
    params = {cudaGraphNodeTypeHost};
    params.host.fn = [](void* calls) { ++*static_cast<int*>(calls); };
    params.host.userData = &host_calls;
    cudaGraphAddNode(&host_node, graph, &set_node, nullptr, 1, &params);
    params = {cudaGraphNodeTypeEmpty};
    cudaGraphAddNode(&empty_node, graph, &host_node, nullptr, 1, &params);
    cudaGraphNode_t no_args = add_kernel(graph, &empty_node, 1, reinterpret_cast<void*>(note_none), nullptr);
    params = {cudaGraphNodeTypeMemFree};
    params.free.dptr = memory;
    cudaGraphAddNode(&free_node, graph, &no_args, nullptr, 1, &params);
    size_t nodes = 0;
    cudaGraphGetNodes(graph, nullptr, &nodes);
    std::printf("nodes: %zu\n", nodes);
    launch_and_print(graph, "child graph, then a kernel without arguments");
    std::printf("host node ran %d time(s)\n", host_calls);
    cudaGraphDestroy(graph);
  }
  // What CUDA refuses: a child graph with memory nodes.
  {
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    cudaGraphNode_t refused;
    cudaMemAllocNodeParams alloc = {};
    alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    alloc.bytesize = 256;
    cudaGraph_t child;
    cudaGraphCreate(&child, 0);
    cudaGraphAddMemAllocNode(&refused, child, nullptr, 0, &alloc);
    std::printf("child graph with an allocation node: %s\n",
                cudaGetErrorName(cudaGraphAddChildGraphNode(&refused, graph, nullptr, 0, child)));
    cudaGetLastError();
    cudaGraphDestroy(child);
    cudaGraphDestroy(graph);
  }
  cudaFree(value);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
