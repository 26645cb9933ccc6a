// The CUDA runtime API's C functions, as cusim implements them. Every call
// returns a cudaError_t; see docs/api-coverage.md for what each one models.
#pragma once
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#include <cstddef>
#include "driver_types.h"
#include "vector_types.h"
#include <cusim/detail/config.hpp>
#include <cusim/detail/kernel_call.hpp>
#include <cusim/launch.hpp>

#define CUDART_VERSION 13000
// The calling convention NVIDIA's headers put on runtime functions (empty
// but on Windows); libraries name it in their own declarations (Thrust's
// CUDA memory resources, whose allocation functions are pointers to
// CUDARTAPI functions).
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
// Device-side launch streams (dynamic parallelism, CUDA 12 and later).
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)

extern "C" {
// Errors.
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// Devices, properties and limits.
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
// One device: there is no pair of devices to ask about.
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
cudaError_t cudaCtxResetPersistingL2Cache(void);
CUSIM_FACT(waits) cudaError_t cudaDeviceSynchronize(void);
// What CUDA 11.6 and later's headers have device code call for
// cudaDeviceSynchronize() (CUB's detail::device_synchronize): the same call.
CUSIM_FACT(waits) inline cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
// The device runtime's low-level launch (what <<<>>> in device code lowers
// to): a buffer for the arguments, each at the next offset aligned for its
// type, then the launch, which takes the buffer.
void* cudaGetParameterBuffer(size_t alignment, size_t size);
CUSIM_FACT(launches) cudaError_t cudaLaunchDevice(void* func, void* parameterBuffer, dim3 gridDimension, dim3 blockDimension,
                             unsigned int sharedMemSize, cudaStream_t stream);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig);
// Deprecated in CUDA 12 and still declared by CUDA 13: banks are 4 bytes
// wide from sm_50 on, and the setting is checked and has no effect.
cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig);

// Launches with the arguments as an array of pointers to them. A kernel
// passed as `const void*` must be known to cusim: every non-template kernel
// compiled by cusim-cc is, and so is every kernel launched once with its type.
CUSIM_FACT(launches) cudaError_t cudaLaunchKernel(const void* func, dim3 grid_dim, dim3 block_dim, void** args, size_t sharedMem = 0,
                             cudaStream_t stream = 0);
// All blocks resident at once, so that grid.sync() can wait for all of them.
CUSIM_FACT(launches) cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid_dim, dim3 block_dim, void** args,
                                        size_t sharedMem = 0, cudaStream_t stream = 0);

// A launch configured by cudaLaunchConfig_t and its attributes (cooperative, cluster dimension).
CUSIM_FACT(launches) cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);

// Occupancy: how many blocks of `func` one multiprocessor holds at once.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags);
// Dynamic shared memory a block may have with numBlocks blocks resident per multiprocessor.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize);
// What the cudaOccupancyMaxPotentialBlockSize* templates call: `shared_for`
// gives the dynamic shared memory of each block size tried.
cudaError_t cusimOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, const void* func,
                                               size_t (*shared_for)(int blockSize, void* context), void* context,
                                               int blockSizeLimit, unsigned int flags);
// Clusters: the largest cluster a launch of `func` could use, and how many of
// the configured clusters can be resident at once.
cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func, const cudaLaunchConfig_t* config);
cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func, const cudaLaunchConfig_t* config);

// Memory.
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
// Hints about managed memory (CUDA 13's forms, with a cudaMemLocation):
// checked and accepted; there is one memory on a CPU.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location);
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol);
cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol);
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream = 0);

// CUDA arrays (src/api/arrays.cpp), and texture and surface objects over
// them and over linear memory (src/api/textures.cpp, docs/textures.md).
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height = 0,
                            unsigned int flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array);
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream = 0);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject);

// Pitched, 2D and 3D memory: linear memory and CUDA arrays.
cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = 0);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0);
cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent);
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, cudaStream_t stream = 0);
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                cudaStream_t stream = 0);

// Pointers, registered host memory, peers, device flags.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags);
cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId);
cudaError_t cudaFuncGetName(const char** name, const void* func);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList, size_t count);
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool, cudaMemLocation* location);

// Streams and events. On the host, work runs asynchronously on cusim's device
// thread, one piece at a time in submission order (which keeps every stream's
// order and every order an event imposes); an event stamps the device
// thread's clock when it runs. In device code they are the device runtime's
// (dynamic parallelism): streams need cudaStreamNonBlocking, events
// cudaEventDisableTiming, and each belongs to the block that created it.
#define CUDART_CB
typedef void (*cudaHostFn_t)(void* userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* userData);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr, cudaLaunchAttributeValue* value);
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue* value);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length = 0,
                                     unsigned int flags = cudaMemAttachSingle);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0, unsigned int flags = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};

// Graphs: work recorded once (by capturing a stream, or node by node) and
// launched into a stream as often as wanted. Nodes run in the order they
// were added, which respects every dependency (a node depends only on nodes
// added before it).
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus);
cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaKernelNodeParams* pNodeParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemsetParams* pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, const cudaHostNodeParams* pNodeParams);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                  size_t numDependencies);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
CUSIM_FACT(launches) cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemcpy3DParms* pCopyParams);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dptr);
// CUDA 12.3's one call for every kind of node (cudaGraphAddNode), child
// graphs, conditional nodes, and capture into a graph node by node.
typedef unsigned long long cudaGraphConditionalHandle;
typedef struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} cudaGraphEdgeData;
// The V2 structures have the fields of the first ones.
struct cudaKernelNodeParamsV2 : cudaKernelNodeParams {};
struct cudaMemcpyNodeParams {
  int flags;
  int reserved[3];
  struct cudaMemcpy3DParms copyParams;
};
struct cudaMemsetParamsV2 : cudaMemsetParams {};
struct cudaHostNodeParamsV2 : cudaHostNodeParams {};
struct cudaChildGraphNodeParams {
  cudaGraph_t graph;
  enum cudaGraphChildGraphNodeOwnership ownership;
};
struct cudaEventRecordNodeParams {
  cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
  cudaEvent_t event;
};
struct cudaMemAllocNodeParamsV2 : cudaMemAllocNodeParams {};
struct cudaMemFreeNodeParams {
  void* dptr;
};
// A conditional node: body graph(s) made with the node (phGraph_out[0..size)),
// run by the value of `handle` when the node's turn comes: If runs the first
// when it is non-zero (the second, if size is 2, when zero), While runs the
// first as long as it is non-zero, Switch runs body n when it is n.
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  enum cudaGraphConditionalNodeType type;
  unsigned int size;
  cudaGraph_t* phGraph_out;
};
struct cudaGraphNodeParams {
  enum cudaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct cudaKernelNodeParamsV2 kernel;
    struct cudaMemcpyNodeParams memcpy;
    struct cudaMemsetParamsV2 memset;
    struct cudaHostNodeParamsV2 host;
    struct cudaChildGraphNodeParams graph;
    struct cudaEventWaitNodeParams eventWait;
    struct cudaEventRecordNodeParams eventRecord;
    struct cudaMemAllocNodeParamsV2 alloc;
    struct cudaMemFreeNodeParams free;
    struct cudaConditionalNodeParams conditional;
  };
  long long reserved2;
};
cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                             const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams* nodeParams);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue = 0, unsigned int flags = 0);
// Device code: the value the handle's conditional nodes will read.
void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out = 0, cudaGraph_t* graph_out = 0,
                                     const cudaGraphNode_t** dependencies_out = 0,
                                     const cudaGraphEdgeData** edgeData_out = 0, size_t* numDependencies_out = 0);
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                                                unsigned int flags = 0);
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                                          cudaStreamCaptureMode mode);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams);

// Copies and sets in a stream. In device code: device-to-device only,
// ordered with the block's launches into the same stream.
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = 0);
}

namespace cusim::detail {
cudaError_t memcpy_symbol(void* symbol, size_t symbol_size, void* buffer, size_t count, size_t offset,
                          cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream = nullptr,
                          bool asynchronous = false);
}

// C++ overloads that take the symbol itself, as CUDA's headers provide. Knowing
// the symbol's type lets cusim check offset + count against its size.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), const_cast<void*>(src), count, offset,
                                      kind, true);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), dst, count, offset, kind, false);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count, size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), const_cast<void*>(src), count, offset,
                                      kind, true, stream, true);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), dst, count, offset, kind, false, stream,
                                      true);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** ptr, const T& symbol) {
  return cudaGetSymbolAddress(ptr, static_cast<const void*>(&symbol));
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  if (size == nullptr) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}
// The typed forms cast through void*, as nvcc's do: T may be const
// (`const float* d; cudaMalloc(&d, n)`, cuda-samples' HSOpticalFlow).
template <class T>
cudaError_t cudaMalloc(T** ptr, size_t size) { return cudaMalloc(static_cast<void**>(static_cast<void*>(ptr)), size); }
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t size) { return cudaMallocHost(static_cast<void**>(static_cast<void*>(ptr)), size); }
template <class T>
cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(static_cast<void**>(static_cast<void*>(ptr)), size, flags);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(static_cast<void**>(static_cast<void*>(ptr)), size, flags);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaStream_t stream) {
  return cudaMallocAsync(static_cast<void**>(static_cast<void*>(ptr)), size, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(static_cast<void**>(static_cast<void*>(ptr)), size, pool, stream);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(static_cast<void**>(static_cast<void*>(ptr)), size, pool, stream);
}
template <class T>
cudaError_t cudaMallocPitch(T** devPtr, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(static_cast<void**>(static_cast<void*>(devPtr)), pitch, width, height);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** pDevice, void* pHost, unsigned int flags) {
  return cudaHostGetDevicePointer(static_cast<void**>(static_cast<void*>(pDevice)), pHost, flags);
}
// The CUDA 11 form, which CUDA's cuda_runtime.h still gives C++ code: the
// error node and log are left empty (instantiation does not fail here).
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphNode_t* pErrorNode,
                                        char* pLogBuffer, size_t bufferSize) {
  if (pErrorNode != nullptr) *pErrorNode = nullptr;
  if (pLogBuffer != nullptr && bufferSize > 0) pLogBuffer[0] = '\0';
  return cudaGraphInstantiate(pGraphExec, graph, 0);
}
// cudaEventCreate with flags: a C++ overload of CUDA's cuda_runtime.h.
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
// And cudaGraphExecUpdate's CUDA 11 form.
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphNode_t* hErrorNode_out,
                                       cudaGraphExecUpdateResult* updateResult_out) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t e = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out != nullptr) *hErrorNode_out = info.errorNode;
  if (updateResult_out != nullptr) *updateResult_out = info.result;
  return e;
}
template <class F>
cudaError_t cudaFuncSetAttribute(F* func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}

namespace cusim::detail {
// The launch a cudaLaunchConfig_t describes.
launch_shape launch_shape_of(const cudaLaunchConfig_t& config);

// A launch of a typed kernel from an argument array; the kernel is then
// known by address too.
template <class... Params>
cudaError_t launch_typed(void (*func)(Params...), const launch_shape& shape, void** args) {
  static const kernel_registration<void(Params...)> registered(func, nullptr);
  return launch_from_argument_array(func, shape, args, registered_name(reinterpret_cast<const void*>(func)));
}
}  // namespace cusim::detail

template <class... Params>
cudaError_t cudaLaunchKernel(void (*func)(Params...), dim3 grid_dim, dim3 block_dim, void** args, size_t sharedMem = 0,
                             cudaStream_t stream = 0) {
  return cusim::detail::launch_typed(func, {grid_dim, block_dim, sharedMem, stream, false}, args);
}
template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(Params...), dim3 grid_dim, dim3 block_dim, void** args,
                                        size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cusim::detail::launch_typed(func, {grid_dim, block_dim, sharedMem, stream, true}, args);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, F* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void*>(func), blockSize,
                                                       dynamicSMemSize);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, F* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, reinterpret_cast<const void*>(func),
                                                                blockSize, dynamicSMemSize, flags);
}

template <class F>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, F* func, int numBlocks, int blockSize) {
  return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, reinterpret_cast<const void*>(func), numBlocks,
                                                   blockSize);
}
template <class UnaryFunction, class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int* minGridSize, int* blockSize, T func,
                                                                    UnaryFunction blockSizeToDynamicSMemSize,
                                                                    int blockSizeLimit = 0, unsigned int flags = 0) {
  auto shared_for = [](int size, void* context) -> size_t {
    return size_t((*static_cast<UnaryFunction*>(context))(size));
  };
  return cusimOccupancyMaxPotentialBlockSize(minGridSize, blockSize, reinterpret_cast<const void*>(func), shared_for,
                                            &blockSizeToDynamicSMemSize, blockSizeLimit, flags);
}
template <class UnaryFunction, class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* minGridSize, int* blockSize, T func,
                                                           UnaryFunction blockSizeToDynamicSMemSize,
                                                           int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                 blockSizeToDynamicSMemSize, blockSizeLimit, 0);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize, T func,
                                                        size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
                                                        unsigned int flags = 0) {
  auto shared_for = [](int, void* context) -> size_t { return *static_cast<size_t*>(context); };
  return cusimOccupancyMaxPotentialBlockSize(minGridSize, blockSize, reinterpret_cast<const void*>(func), shared_for,
                                            &dynamicSMemSize, blockSizeLimit, flags);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func, size_t dynamicSMemSize = 0,
                                               int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, dynamicSMemSize, blockSizeLimit, 0);
}

template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F* func) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}
template <class F>
cudaError_t cudaFuncGetName(const char** name, F* func) {
  return cudaFuncGetName(name, reinterpret_cast<const void*>(func));
}
template <class F>
cudaError_t cudaFuncSetCacheConfig(F* func, cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), cacheConfig);
}
template <class F>
cudaError_t cudaFuncSetSharedMemConfig(F* func, cudaSharedMemConfig config) {
  return cudaFuncSetSharedMemConfig(reinterpret_cast<const void*>(func), config);
}

template <class... Expected, class... Actual>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(Expected...), Actual&&... args) {
  if (config == nullptr) return cudaErrorInvalidValue;
  static const cusim::detail::kernel_registration<void(Expected...)> registered(kernel, nullptr);
  return cusim::kernel_launcher<Expected...>(kernel, cusim::detail::launch_shape_of(*config),
                                             cusim::detail::registered_name(reinterpret_cast<const void*>(kernel)))(
      static_cast<Actual&&>(args)...);
}
template <class F>
cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, F* func, const cudaLaunchConfig_t* config) {
  return cudaOccupancyMaxPotentialClusterSize(clusterSize, reinterpret_cast<const void*>(func), config);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, F* func, const cudaLaunchConfig_t* config) {
  return cudaOccupancyMaxActiveClusters(numClusters, reinterpret_cast<const void*>(func), config);
}

// What cusim does not provide: a call names the function and why.
#include <cusim/detail/unsupported_runtime.hpp>

// The legacy dynamic-parallelism model (CDP1): CUDA 11.6 to 12 kept it, with
// device-side cudaDeviceSynchronize(), for programs built with
// CUDA_FORCE_CDP1_IF_SUPPORTED defined. A program with one translation unit
// built so runs in that model.
#ifdef CUDA_FORCE_CDP1_IF_SUPPORTED
namespace cusim::detail {
bool request_legacy_dynamic_parallelism();
inline const bool legacy_dynamic_parallelism_requested = request_legacy_dynamic_parallelism();
}  // namespace cusim::detail
#endif

// nvcc --default-stream per-thread (cusim-cc defines the macro as nvcc
// does): the NULL stream is each host thread's own default stream, which
// synchronises with the legacy stream but not with other streams. A program
// with one translation unit built so runs with per-thread default streams.
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
namespace cusim::detail {
bool request_per_thread_default_stream();
inline const bool per_thread_default_stream_requested = request_per_thread_default_stream();
}  // namespace cusim::detail
#endif
