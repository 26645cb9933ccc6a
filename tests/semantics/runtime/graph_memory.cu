// Graph memory nodes: an allocation node's address serves every launch of
// its graph; each launch allocates it and a free node, cudaFree or
// cudaFreeAsync frees it; launching again while it is allocated fails with
// cudaErrorInvalidValue unless the graph was instantiated to free on launch;
// such a graph has one executable graph at a time; freed memory stays
// mapped (in the footprint) until cudaDeviceGraphMemTrim; an allocation left
// allocated outlives its graph. Every check holds on an H200 too
// (diff.graph_memory).
#include <cstdio>

#include <cuda_runtime.h>

static int failures = 0;

static void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  if (!ok) ++failures;
}

__global__ void fill(int* data, int n, int value) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = value + i;
}

__global__ void sum(const int* data, int n, int* out) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += data[i];
    *out = s;
  }
}

constexpr int n = 1024;

static unsigned long long graph_memory(cudaGraphMemAttributeType attribute) {
  unsigned long long value = 0;
  cudaDeviceGetGraphMemAttribute(0, attribute, &value);
  return value;
}

// alloc -> fill(value), and no free node: the memory stays allocated after a launch.
static cudaGraph_t allocate_and_fill(int** address, int value) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc_node, fill_node;
  cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc);
  *address = static_cast<int*>(alloc.dptr);
  int count = n;
  void* args[] = {address, &count, &value};
  cudaKernelNodeParams kernel = {};
  kernel.func = reinterpret_cast<void*>(fill);
  kernel.gridDim = dim3(1);
  kernel.blockDim = dim3(128);
  kernel.kernelParams = args;
  cudaGraphAddKernelNode(&fill_node, graph, &alloc_node, 1, &kernel);
  return graph;
}

static int sum_of(const int* data, cudaStream_t stream, int* out) {
  sum<<<1, 32, 0, stream>>>(data, n, out);
  cudaStreamSynchronize(stream);
  return *out;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* out;
  cudaMallocManaged(&out, sizeof(int));
  const int expected = n * (n - 1) / 2;  // fill(0)

  int* data = nullptr;
  cudaGraph_t graph = allocate_and_fill(&data, 0);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  expect(graph_memory(cudaGraphMemAttrUsedMemCurrent) == 0, "no graph memory is used before a launch");

  expect(cudaGraphLaunch(exec, stream) == cudaSuccess, "first launch");
  expect(sum_of(data, stream, out) == expected, "the launch's kernel filled the allocation");
  expect(graph_memory(cudaGraphMemAttrUsedMemCurrent) >= n * sizeof(int), "the allocation is in use after the launch");
  expect(cudaFree(data) == cudaSuccess, "cudaFree frees a graph allocation");
  expect(graph_memory(cudaGraphMemAttrUsedMemCurrent) >= n * sizeof(int) &&
             graph_memory(cudaGraphMemAttrReservedMemCurrent) >= n * sizeof(int),
         "freed, it stays mapped for the next launch");
  expect(cudaDeviceGraphMemTrim(0) == cudaSuccess && graph_memory(cudaGraphMemAttrUsedMemCurrent) == 0,
         "until a trim");
  expect(cudaFree(data) == cudaErrorInvalidValue, "freeing it again is an error");
  cudaGetLastError();

  expect(cudaGraphLaunch(exec, stream) == cudaSuccess, "second launch, after cudaFree");
  expect(cudaFreeAsync(data, stream) == cudaSuccess, "cudaFreeAsync frees it");
  expect(cudaGraphLaunch(exec, stream) == cudaSuccess, "third launch, after cudaFreeAsync");
  expect(cudaGraphLaunch(exec, stream) == cudaErrorInvalidValue, "a launch while allocated fails");
  cudaGetLastError();
  expect(sum_of(data, stream, out) == expected, "the failed launch left the allocation alone");

  // A graph whose only node frees the first graph's allocation.
  cudaGraph_t free_graph;
  cudaGraphCreate(&free_graph, 0);
  cudaGraphNode_t free_node;
  cudaGraphAddMemFreeNode(&free_node, free_graph, nullptr, 0, data);
  cudaGraphExec_t free_exec;
  cudaGraphInstantiate(&free_exec, free_graph, 0);
  expect(cudaGraphLaunch(free_exec, stream) == cudaSuccess, "a free node in another graph frees it");
  expect(cudaGraphLaunch(exec, stream) == cudaSuccess, "so the graph launches again");
  expect(cudaGraphLaunch(free_exec, stream) == cudaSuccess, "freed again by the other graph");
  expect(cudaGraphLaunch(free_exec, stream) == cudaErrorInvalidValue, "a free node of unallocated memory fails");
  cudaGetLastError();
  cudaStreamSynchronize(stream);

  // One executable graph at a time; instantiated to free on launch, its
  // launches follow one another freely.
  cudaGraphExec_t auto_exec;
  expect(cudaGraphInstantiate(&auto_exec, graph, 0) == cudaErrorNotSupported, "a second executable graph is refused");
  cudaGetLastError();
  cudaGraph_t clone;
  cudaGraphClone(&clone, graph);
  expect(cudaGraphInstantiate(&auto_exec, clone, 0) == cudaErrorInvalidValue, "and one made from a clone");
  cudaGetLastError();
  cudaGraphDestroy(clone);
  cudaGraphExecDestroy(exec);
  cudaGraphInstantiateWithFlags(&auto_exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  expect(cudaGraphLaunch(auto_exec, stream) == cudaSuccess && cudaGraphLaunch(auto_exec, stream) == cudaSuccess,
         "auto-free on launch: two launches in a row");
  expect(sum_of(data, stream, out) == expected, "the same address each launch");

  // An allocation left allocated outlives its graph and executable graphs.
  cudaGraphExecDestroy(auto_exec);
  cudaGraphDestroy(graph);
  expect(sum_of(data, stream, out) == expected, "allocated memory outlives its graph");
  expect(cudaFree(data) == cudaSuccess, "and is freed by cudaFree");

  // Stream capture: cudaMallocAsync and cudaFreeAsync become the nodes.
  cudaGraph_t captured;
  int* scratch = nullptr;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&scratch, n * sizeof(int), stream);
  fill<<<1, 128, 0, stream>>>(scratch, n, 1);
  sum<<<1, 32, 0, stream>>>(scratch, n, out);
  cudaFreeAsync(scratch, stream);
  cudaStreamEndCapture(stream, &captured);
  cudaGraphExec_t captured_exec;
  cudaGraphInstantiate(&captured_exec, captured, 0);
  bool all = true;
  for (int i = 0; i < 3; ++i) {
    all = all && cudaGraphLaunch(captured_exec, stream) == cudaSuccess;
    cudaStreamSynchronize(stream);
    all = all && *out == expected + n;
  }
  expect(all, "a captured allocation and free, launched three times");
  expect(cudaDeviceGraphMemTrim(0) == cudaSuccess && graph_memory(cudaGraphMemAttrUsedMemCurrent) == 0,
         "nothing left in use after a trim");
  cudaGraphExecDestroy(captured_exec);
  cudaGraphDestroy(captured);
  cudaGraphExecDestroy(free_exec);
  cudaGraphDestroy(free_graph);
  expect(cudaDeviceSynchronize() == cudaSuccess, "no error left");
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
