// The enumerations of NVIDIA's driver_types.h (CUDA 13.0) that cusim's
// runtime takes no decision on: graphics interop, JIT options, external
// memory, RDMA, atomics capabilities, graph debugging and the like. Code
// names them (in switch statements, in arguments cusim accepts and ignores,
// in tables of names), so each is here with NVIDIA's names and values.
// Included by driver_types.h; the enumerations cusim acts on are there.
#pragma once


enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2,
};

enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1, cudaSyncPolicySpin = 2, cudaSyncPolicyYield = 3, cudaSyncPolicyBlockingSync = 4,
};

enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0, cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2,
};

enum cudaStreamUpdateCaptureDependenciesFlags {
  cudaStreamAddCaptureDependencies = 0x0, cudaStreamSetCaptureDependencies = 0x1,
};

enum cudaUserObjectFlags {
  cudaUserObjectNoDestructorSync = 0x1,
};

enum cudaUserObjectRetainFlags {
  cudaGraphUserObjectMove = 0x1,
};

enum cudaGraphicsRegisterFlags {
  cudaGraphicsRegisterFlagsNone = 0, cudaGraphicsRegisterFlagsReadOnly = 1,
  cudaGraphicsRegisterFlagsWriteDiscard = 2, cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
  cudaGraphicsRegisterFlagsTextureGather = 8,
};

enum cudaGraphicsMapFlags {
  cudaGraphicsMapFlagsNone = 0, cudaGraphicsMapFlagsReadOnly = 1, cudaGraphicsMapFlagsWriteDiscard = 2,
};

enum cudaGraphicsCubeFace {
  cudaGraphicsCubeFacePositiveX = 0x00, cudaGraphicsCubeFaceNegativeX = 0x01, cudaGraphicsCubeFacePositiveY =
  0x02, cudaGraphicsCubeFaceNegativeY = 0x03, cudaGraphicsCubeFacePositiveZ = 0x04,
  cudaGraphicsCubeFaceNegativeZ = 0x05,
};



enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0,
};

enum cudaComputeMode {
  cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6,
};

enum cudaMemRangeAttribute {
  cudaMemRangeAttributeReadMostly = 1, cudaMemRangeAttributePreferredLocation = 2,
  cudaMemRangeAttributeAccessedBy = 3, cudaMemRangeAttributeLastPrefetchLocation = 4,
  cudaMemRangeAttributePreferredLocationType = 5, cudaMemRangeAttributePreferredLocationId = 6,
  cudaMemRangeAttributeLastPrefetchLocationType = 7, cudaMemRangeAttributeLastPrefetchLocationId = 8,
};

enum cudaFlushGPUDirectRDMAWritesOptions {
  cudaFlushGPUDirectRDMAWritesOptionHost = 1 << 0, cudaFlushGPUDirectRDMAWritesOptionMemOps = 1 << 1,
};

enum cudaGPUDirectRDMAWritesOrdering {
  cudaGPUDirectRDMAWritesOrderingNone = 0, cudaGPUDirectRDMAWritesOrderingOwner = 100,
  cudaGPUDirectRDMAWritesOrderingAllDevices = 200,
};

enum cudaFlushGPUDirectRDMAWritesScope {
  cudaFlushGPUDirectRDMAWritesToOwner = 100, cudaFlushGPUDirectRDMAWritesToAllDevices = 200,
};

enum cudaFlushGPUDirectRDMAWritesTarget {
  cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
};

enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1, cudaMemAccessFlagsProtReadWrite = 3,
};

enum cudaGraphMemAttributeType {
  cudaGraphMemAttrUsedMemCurrent = 0x0, cudaGraphMemAttrUsedMemHigh = 0x1, cudaGraphMemAttrReservedMemCurrent =
  0x2, cudaGraphMemAttrReservedMemHigh = 0x3,
};

enum cudaMemcpyFlags {
  cudaMemcpyFlagDefault = 0x0, cudaMemcpyFlagPreferOverlapWithCompute = 0x1,
};

enum cudaMemcpySrcAccessOrder {
  cudaMemcpySrcAccessOrderInvalid = 0x0, cudaMemcpySrcAccessOrderStream = 0x1,
  cudaMemcpySrcAccessOrderDuringApiCall = 0x2, cudaMemcpySrcAccessOrderAny = 0x3, cudaMemcpySrcAccessOrderMax =
  0x7FFFFFFF,
};

enum cudaMemcpy3DOperandType {
  cudaMemcpyOperandTypePointer = 0x1, cudaMemcpyOperandTypeArray = 0x2, cudaMemcpyOperandTypeMax = 0x7FFFFFFF,
};

enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1, cudaDevP2PAttrAccessSupported = 2, cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4, cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5,
};

enum cudaAtomicOperation {
  cudaAtomicOperationIntegerAdd = 0, cudaAtomicOperationIntegerMin = 1, cudaAtomicOperationIntegerMax = 2,
  cudaAtomicOperationIntegerIncrement = 3, cudaAtomicOperationIntegerDecrement = 4, cudaAtomicOperationAnd = 5,
  cudaAtomicOperationOr = 6, cudaAtomicOperationXOR = 7, cudaAtomicOperationExchange = 8, cudaAtomicOperationCAS
  = 9, cudaAtomicOperationFloatAdd = 10, cudaAtomicOperationFloatMin = 11, cudaAtomicOperationFloatMax = 12,
};

enum cudaAtomicOperationCapability {
  cudaAtomicCapabilitySigned = 1u << 0, cudaAtomicCapabilityUnsigned = 1u << 1, cudaAtomicCapabilityReduction =
  1u << 2, cudaAtomicCapabilityScalar32 = 1u << 3, cudaAtomicCapabilityScalar64 = 1u << 4,
  cudaAtomicCapabilityScalar128 = 1u << 5, cudaAtomicCapabilityVector32x4 = 1u << 6,
};

enum cudaExternalMemoryHandleType {
  cudaExternalMemoryHandleTypeOpaqueFd = 1, cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
  cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3, cudaExternalMemoryHandleTypeD3D12Heap = 4,
  cudaExternalMemoryHandleTypeD3D12Resource = 5, cudaExternalMemoryHandleTypeD3D11Resource = 6,
  cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7, cudaExternalMemoryHandleTypeNvSciBuf = 8,
};

enum cudaExternalSemaphoreHandleType {
  cudaExternalSemaphoreHandleTypeOpaqueFd = 1, cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
  cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3, cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
  cudaExternalSemaphoreHandleTypeD3D11Fence = 5, cudaExternalSemaphoreHandleTypeNvSciSync = 6,
  cudaExternalSemaphoreHandleTypeKeyedMutex = 7, cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9, cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32
  = 10,
};

enum cudaJitOption {
  cudaJitMaxRegisters = 0, cudaJitThreadsPerBlock = 1, cudaJitWallTime = 2, cudaJitInfoLogBuffer = 3,
  cudaJitInfoLogBufferSizeBytes = 4, cudaJitErrorLogBuffer = 5, cudaJitErrorLogBufferSizeBytes = 6,
  cudaJitOptimizationLevel = 7, cudaJitFallbackStrategy = 10, cudaJitGenerateDebugInfo = 11, cudaJitLogVerbose =
  12, cudaJitGenerateLineInfo = 13, cudaJitCacheMode = 14, cudaJitPositionIndependentCode = 30,
  cudaJitMinCtaPerSm = 31, cudaJitMaxThreadsPerBlock = 32, cudaJitOverrideDirectiveValues = 33,
};

enum cudaLibraryOption {
  cudaLibraryHostUniversalFunctionAndDataTable = 0, cudaLibraryBinaryIsPreserved = 1,
};

enum cudaJit_CacheMode {
  cudaJitCacheOptionNone = 0, cudaJitCacheOptionCG, cudaJitCacheOptionCA,
};

enum cudaJit_Fallback {
  cudaPreferPtx = 0, cudaPreferBinary,
};

enum cudaCGScope {
  cudaCGScopeInvalid = 0, cudaCGScopeGrid = 1, cudaCGScopeReserved = 2,
};

enum cudaGraphConditionalHandleFlags {
  cudaGraphCondAssignDefault = 1,
};

enum cudaGraphConditionalNodeType {
  cudaGraphCondTypeIf = 0, cudaGraphCondTypeWhile = 1, cudaGraphCondTypeSwitch = 2,
};

enum cudaGraphChildGraphNodeOwnership {
  cudaGraphChildGraphOwnershipClone = 0, cudaGraphChildGraphOwnershipMove = 1,
};

enum cudaGraphDependencyType_enum {
  cudaGraphDependencyTypeDefault = 0, cudaGraphDependencyTypeProgrammatic = 1,
};
typedef enum cudaGraphDependencyType_enum cudaGraphDependencyType;

enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0, cudaGraphExecUpdateError = 0x1, cudaGraphExecUpdateErrorTopologyChanged =
  0x2, cudaGraphExecUpdateErrorNodeTypeChanged = 0x3, cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5, cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7, cudaGraphExecUpdateErrorAttributesChanged = 0x8,
};

enum cudaGraphInstantiateResult {
  cudaGraphInstantiateSuccess = 0, cudaGraphInstantiateError = 1, cudaGraphInstantiateInvalidStructure = 2,
  cudaGraphInstantiateNodeOperationNotSupported = 3, cudaGraphInstantiateMultipleDevicesNotSupported = 4,
  cudaGraphInstantiateConditionalHandleUnused = 5,
};
typedef enum cudaGraphInstantiateResult cudaGraphInstantiateResult;

enum cudaGraphKernelNodeField {
  cudaGraphKernelNodeFieldInvalid = 0, cudaGraphKernelNodeFieldGridDim, cudaGraphKernelNodeFieldParam,
  cudaGraphKernelNodeFieldEnabled,
};

enum cudaGetDriverEntryPointFlags {
  cudaEnableDefault = 0x0, cudaEnableLegacyStream = 0x1, cudaEnablePerThreadDefaultStream = 0x2,
};

enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2,
};

enum cudaGraphDebugDotFlags {
  cudaGraphDebugDotFlagsVerbose = 1 << 0, cudaGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  cudaGraphDebugDotFlagsMemcpyNodeParams = 1 << 3, cudaGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  cudaGraphDebugDotFlagsHostNodeParams = 1 << 5, cudaGraphDebugDotFlagsEventNodeParams = 1 << 6,
  cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7, cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1 <<
  8, cudaGraphDebugDotFlagsKernelNodeAttributes = 1 << 9, cudaGraphDebugDotFlagsHandles = 1 << 10,
  cudaGraphDebugDotFlagsConditionalNodeParams = 1 << 15,
};

enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8,
};

enum cudaLaunchMemSyncDomain {
  cudaLaunchMemSyncDomainDefault = 0, cudaLaunchMemSyncDomainRemote = 1,
};
typedef enum cudaLaunchMemSyncDomain cudaLaunchMemSyncDomain;

enum cudaDeviceNumaConfig {
  cudaDeviceNumaConfigNone = 0, cudaDeviceNumaConfigNumaNode,
};

enum cudaAsyncNotificationType_enum {
  cudaAsyncNotificationTypeOverBudget = 0x1,
};
typedef enum cudaAsyncNotificationType_enum cudaAsyncNotificationType;

enum CUDAlogLevel_enum {
  cudaLogLevelError = 0, cudaLogLevelWarning = 1,
};
typedef enum CUDAlogLevel_enum cudaLogLevel;
