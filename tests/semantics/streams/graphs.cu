// CUDA graphs: a stream capture replayed many times, a capture forked and
// joined across two streams with events, and a graph built node by node.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice_plus_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = 2 * data[i] + 1;
}
__global__ void fill(int* data, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}
__global__ void add(const int* a, const int* b, int* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void scale(int* data, int n, int factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

void CUDART_CB count_call(void* counter) { ++*static_cast<int*>(counter); }

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  const int n = 256;
  int *data, *a, *b, *c, *host;
  cudaMalloc(&data, n * sizeof(int));
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaMallocHost(&host, n * sizeof(int));
  for (int i = 0; i < n; ++i) host[i] = i;
  cudaMemcpy(data, host, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);

  // 1. Capture a kernel, a copy back and a host function; replay it ten times.
  int calls = 0;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  expect("begin capture", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
  cudaStreamIsCapturing(s1, &status);
  expect("capturing", status, cudaStreamCaptureStatusActive);
  twice_plus_one<<<n / 64, 64, 0, s1>>>(data, n);
  cudaMemcpyAsync(host, data, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, count_call, &calls);
  cudaGraph_t graph;
  expect("end capture", cudaStreamEndCapture(s1, &graph), cudaSuccess);
  cudaStreamIsCapturing(s1, &status);
  expect("not capturing", status, cudaStreamCaptureStatusNone);
  expect("nothing ran while capturing", calls, 0);
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  expect("captured nodes", (long long)nodes, 3);
  cudaGraphExec_t exec;
  expect("instantiate", cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int r = 0; r < 10; ++r) expect("launch", cudaGraphLaunch(exec, s1), cudaSuccess);
  expect("synchronize", cudaStreamSynchronize(s1), cudaSuccess);
  expect("the host function ran each time", calls, 10);
  for (int i = 0; i < n; ++i) expect("ten replays of 2x+1", host[i], 1024 * (i + 1) - 1);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);

  // 2. Fork into a second stream and join back, through events.
  cudaEvent_t fork, join;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  expect("begin capture", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  fill<<<n / 64, 64, 0, s1>>>(a, n, 3);
  fill<<<n / 64, 64, 0, s2>>>(b, n, 4);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  add<<<n / 64, 64, 0, s1>>>(a, b, c, n);
  expect("end capture", cudaStreamEndCapture(s1, &graph), cudaSuccess);
  expect("instantiate", cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  expect("launch", cudaGraphLaunch(exec, s1), cudaSuccess);
  cudaMemcpyAsync(host, c, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  expect("synchronize", cudaStreamSynchronize(s1), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("forked and joined", host[i], 7);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);

  // 3. A graph built node by node: set, scale, copy back, count.
  cudaGraph_t built;
  expect("create", cudaGraphCreate(&built, 0), cudaSuccess);
  cudaMemsetParams set{};
  set.dst = data;
  set.value = 5;
  set.elementSize = sizeof(int);
  set.width = n;
  set.height = 1;
  cudaGraphNode_t set_node, scale_node, copy_node, host_node;
  expect("memset node", cudaGraphAddMemsetNode(&set_node, built, nullptr, 0, &set), cudaSuccess);
  int count = n, factor = 3;
  void* args[] = {&data, &count, &factor};
  cudaKernelNodeParams kernel{};
  kernel.func = (void*)scale;
  kernel.gridDim = dim3(n / 64);
  kernel.blockDim = dim3(64);
  kernel.kernelParams = args;
  expect("kernel node", cudaGraphAddKernelNode(&scale_node, built, &set_node, 1, &kernel), cudaSuccess);
  expect("memcpy node",
         cudaGraphAddMemcpyNode1D(&copy_node, built, &scale_node, 1, host, data, n * sizeof(int),
                                  cudaMemcpyDeviceToHost),
         cudaSuccess);
  cudaHostNodeParams host_params{count_call, &calls};
  expect("host node", cudaGraphAddHostNode(&host_node, built, &copy_node, 1, &host_params), cudaSuccess);
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  cudaGraphNodeGetType(scale_node, &type);
  expect("kernel node type", type, cudaGraphNodeTypeKernel);
  cudaGraphNodeGetType(set_node, &type);
  expect("memset node type", type, cudaGraphNodeTypeMemset);
  cudaGraphGetNodes(built, nullptr, &nodes);
  expect("nodes added", (long long)nodes, 4);
  factor = 100;  // the node copied its arguments when it was added
  expect("instantiate", cudaGraphInstantiate(&exec, built, 0), cudaSuccess);
  expect("launch", cudaGraphLaunch(exec, s2), cudaSuccess);
  expect("synchronize", cudaStreamSynchronize(s2), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("set, scaled, copied", host[i], 15);
  expect("the host node ran", calls, 11);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(built);

  // 4. Misuse during a capture: waiting for the captured stream, and work in
  // the legacy stream while a blocking stream is captured.
  cudaGraph_t spoiled = nullptr;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  // As an H100 answers:
  expect("query a capturing stream", cudaStreamQuery(s1), cudaErrorStreamCaptureUnsupported);
  expect("end the invalidated capture", cudaStreamEndCapture(s1, &spoiled), cudaErrorStreamCaptureInvalidated);
  cudaGetLastError();
  cudaStream_t blocking;
  cudaStreamCreate(&blocking);
  cudaStreamBeginCapture(blocking, cudaStreamCaptureModeGlobal);
  fill<<<1, 64, 0, blocking>>>(a, 64, 1);
  fill<<<1, 64>>>(b, 64, 1);
  expect("legacy-stream launch while a blocking stream is captured", cudaGetLastError(),
         cudaErrorStreamCaptureImplicit);
  expect("end the invalidated capture", cudaStreamEndCapture(blocking, &spoiled), cudaErrorStreamCaptureInvalidated);
  cudaGetLastError();
  cudaStreamDestroy(blocking);

  expect("begin capture on the legacy stream", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
         cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  std::printf("graphs: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
