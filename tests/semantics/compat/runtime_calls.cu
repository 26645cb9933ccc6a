// Runtime calls cuda-samples make beyond cusim's first API (issue 32): graph
// memcpy and memory nodes, graph clone/update/upload, captured pageable
// copies and stream-ordered allocations, stream attributes, managed-memory
// hints, the P2P query, and the C++ forms CUDA's cuda_runtime.h adds
// (cudaEventCreate with flags; CUDA 11's cudaGraphInstantiate and
// cudaGraphExecUpdate).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void add(int* data, int n, int amount) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += amount;
}

// `(float*)smem` on an extern __shared__ int array, as cuda-samples'
// SharedMemory<T> does; block_tile_memory as reduction's kernels take it.
__global__ void through_shared(float* out) {
  __shared__ cg::block_tile_memory<64> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  extern __shared__ int raw[];
  float* values = (float*)raw;
  values[threadIdx.x] = 0.5f * threadIdx.x;
  block.sync();
  out[threadIdx.x] = values[blockDim.x - 1 - threadIdx.x];
}

static bool ok = true;
static void expect(bool condition, const char* what) {
  if (!condition) std::printf("FAILED: %s\n", what);
  ok = ok && condition;
}

int main() {
  constexpr int n = 64;
  int* data = nullptr;
  cudaMalloc(&data, n * sizeof(int));
  cudaMemset(data, 0, n * sizeof(int));
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i;

  // A graph built by hand: a 3D copy of host[] into data, a kernel, and an
  // allocation node whose memory outlives the graph through its exec.
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = make_cudaPitchedPtr(host, n * sizeof(int), n * sizeof(int), 1);
  copy.dstPtr = make_cudaPitchedPtr(data, n * sizeof(int), n * sizeof(int), 1);
  copy.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  copy.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t copy_node, kernel_node, alloc_node, free_node;
  expect(cudaGraphAddMemcpyNode(&copy_node, graph, nullptr, 0, &copy) == cudaSuccess, "memcpy node");
  int amount = 10, count = n;
  void* args[] = {&data, &count, &amount};
  cudaKernelNodeParams kernel = {};
  kernel.func = reinterpret_cast<void*>(add);
  kernel.gridDim = dim3(1);
  kernel.blockDim = dim3(n);
  kernel.kernelParams = args;
  cudaGraphAddKernelNode(&kernel_node, graph, &copy_node, 1, &kernel);
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.bytesize = 4096;
  expect(cudaGraphAddMemAllocNode(&alloc_node, graph, &kernel_node, 1, &alloc) == cudaSuccess && alloc.dptr,
         "allocation node");
  cudaGraphAddMemFreeNode(&free_node, graph, &alloc_node, 1, alloc.dptr);

  cudaGraph_t clone;
  expect(cudaGraphClone(&clone, graph) == cudaSuccess, "clone");
  cudaGraphExec_t exec;
  expect(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) == cudaSuccess, "CUDA 11 instantiate");
  cudaGraphDestroy(graph);  // the exec keeps its memory
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  expect(cudaGraphUpload(exec, stream) == cudaSuccess, "upload");
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  int result[n];
  cudaMemcpy(result, data, sizeof result, cudaMemcpyDeviceToHost);
  expect(result[5] == 15, "graph ran the copy, then the kernel");
  unsigned long long graph_memory = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &graph_memory);
  expect(graph_memory >= 4096, "graph memory mapped by the launch");

  // The clone, updated into the exec, with a new kernel argument.
  cudaGraphExecUpdateResult update_result;
  cudaGraphNode_t error_node;
  expect(cudaGraphExecUpdate(exec, clone, &error_node, &update_result) == cudaSuccess &&
             update_result == cudaGraphExecUpdateSuccess,
         "CUDA 11 update");
  cudaGraphNode_t clone_nodes[4];
  size_t clone_count = 4;
  cudaGraphGetNodes(clone, clone_nodes, &clone_count);
  amount = 100;
  expect(cudaGraphExecKernelNodeSetParams(exec, clone_nodes[1], &kernel) == cudaSuccess, "kernel node params");
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(result, data, sizeof result, cudaMemcpyDeviceToHost);
  expect(result[5] == 105, "updated kernel argument");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(clone);

  // A capture with a pageable copy and a stream-ordered allocation, launched twice.
  int* scratch = nullptr;
  int pageable_out = 0;
  cudaGraph_t captured;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&scratch, n * sizeof(int), stream);
  cudaMemcpyAsync(scratch, host, n * sizeof(int), cudaMemcpyHostToDevice, stream);
  add<<<1, n, 0, stream>>>(scratch, n, 1);
  cudaMemcpyAsync(&pageable_out, scratch + 7, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaFreeAsync(scratch, stream);
  expect(cudaStreamEndCapture(stream, &captured) == cudaSuccess, "capture with pageable copies");
  cudaGraphExec_t captured_exec;
  cudaGraphInstantiate(&captured_exec, captured, 0);
  for (int launch = 0; launch < 2; ++launch) {
    pageable_out = 0;
    cudaGraphLaunch(captured_exec, stream);
    cudaStreamSynchronize(stream);
    expect(pageable_out == 8, "captured graph, each launch");
  }
  cudaGraphExecDestroy(captured_exec);
  cudaGraphDestroy(captured);

  // Stream attributes, hints and queries.
  cudaStreamAttrValue window = {};
  window.accessPolicyWindow.base_ptr = data;
  window.accessPolicyWindow.num_bytes = n * sizeof(int);
  window.accessPolicyWindow.hitRatio = 0.6f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  expect(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess, "set window");
  cudaStreamAttrValue read_back = {};
  cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read_back);
  expect(read_back.accessPolicyWindow.num_bytes == n * sizeof(int), "window read back");
  expect(cudaCtxResetPersistingL2Cache() == cudaSuccess, "reset persisting L2");
  int* managed = nullptr;
  cudaMallocManaged(&managed, 4096);
  cudaMemLocation device = {};
  device.type = cudaMemLocationTypeDevice;
  device.id = 0;
  expect(cudaMemAdvise(managed, 4096, cudaMemAdviseSetPreferredLocation, device) == cudaSuccess, "advise");
  expect(cudaMemPrefetchAsync(managed, 4096, device, 0, stream) == cudaSuccess, "prefetch");
  cudaMemLocation on_host = {};
  on_host.type = cudaMemLocationTypeHost;
  on_host.id = cudaCpuDeviceId;  // the host's device number, as CUDA 12's prefetch took it
  expect(cudaMemPrefetchAsync(managed, 4096, on_host, 0, stream) == cudaSuccess, "prefetch to the host");
  expect(cudaCpuDeviceId == -1 && cudaInvalidDeviceId == -2, "cudaCpuDeviceId, cudaInvalidDeviceId");
  // Deprecated, still declared by CUDA 13 (NVIDIA's american-options sample calls it).
  expect(cudaFuncSetSharedMemConfig(add, cudaSharedMemBankSizeEightByte) == cudaSuccess, "bank size of a kernel");
  expect(cudaFuncSetSharedMemConfig(add, static_cast<cudaSharedMemConfig>(7)) == cudaErrorInvalidValue &&
             cudaGetLastError() == cudaErrorInvalidValue,
         "a bank size that is none");
  expect(cudaStreamAttachMemAsync(stream, managed) == cudaSuccess, "attach");
  cudaEvent_t event;
  expect(cudaEventCreate(&event, cudaEventDisableTiming) == cudaSuccess, "cudaEventCreate with flags");
  cudaEventDestroy(event);
  int p2p = -1;
  expect(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice,
         "a device is not its own peer");
  cudaGetLastError();

  float* out = nullptr;
  cudaMallocManaged(&out, 32 * sizeof(float));
  through_shared<<<1, 32, 32 * sizeof(int)>>>(out);
  expect(cudaDeviceSynchronize() == cudaSuccess && out[0] == 15.5f && out[31] == 0.0f, "(float*) of shared int[]");

  std::printf("graph result %d, captured %d, window %zu bytes\n%s\n", result[5], pageable_out,
              read_back.accessPolicyWindow.num_bytes, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
