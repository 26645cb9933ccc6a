// NVIDIA's header conventions that real programs test (issue 32): include
// guards (cuda-samples' helper_cuda.h declares checkCudaErrors only under
// __DRIVER_TYPES_H__, findCudaDevice only under __CUDA_RUNTIME_H__), version
// macros, the enumerations of driver_types.h with NVIDIA's values, and
// __noinline__ with standard headers included after cuda_runtime.h (GCC's
// <memory> writes __attribute__((__noinline__)), which a __noinline__ macro
// breaks: cuda-samples' deviceQuery).
#include <cuda_runtime.h>
#include <vector_functions.h>
#include <cstdio>
#include <math.h>
#include <memory>

#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || \
    !defined(__VECTOR_TYPES_H__) || !defined(__VECTOR_FUNCTIONS_H__)
#error "NVIDIA's include guards are missing"
#endif
#if !defined(__CUDACC__) || !defined(__NVCC__) || __CUDACC_VER_MAJOR__ < 12 || !defined(__CUDACC_VER_MINOR__)
#error "nvcc's macros are missing"
#endif
#if CUDART_VERSION < 12000
#error "CUDART_VERSION is missing"
#endif

// What helper_cuda.h does under the guard.
#ifdef __DRIVER_TYPES_H__
template <class T>
bool check(T result, const char* what) {
  if (result != cudaSuccess) std::printf("%s failed: %s\n", what, cudaGetErrorName(result));
  return result == cudaSuccess;
}
#endif

// Values as NVIDIA's driver_types.h gives them (CUDA 13.0).
static_assert(cudaComputeModeDefault == 0 && cudaComputeModeProhibited == 2 && cudaComputeModeExclusiveProcess == 3);
static_assert(cudaMemAdviseSetReadMostly == 1 && cudaMemAdviseUnsetAccessedBy == 6);
static_assert(cudaLimitStackSize == 0 && cudaLimitMallocHeapSize == 2 && cudaLimitPersistingL2CacheSize == 6);
static_assert(cudaFuncCachePreferNone == 0 && cudaFuncCachePreferShared == 1 && cudaFuncCachePreferEqual == 3);
static_assert(cudaSharedMemBankSizeDefault == 0 && cudaSharedMemBankSizeEightByte == 2);
static_assert(cudaSharedmemCarveoutDefault == -1 && cudaSharedmemCarveoutMaxShared == 100);
static_assert(cudaChannelFormatKindFloat == 2 && cudaResourceTypePitch2D == 3);
static_assert(cudaGraphExecUpdateErrorTopologyChanged == 2 && cudaGraphMemAttrReservedMemHigh == 3);
static_assert(cudaDevP2PAttrAccessSupported == 2 && cudaAccessPropertyPersisting == 2);

// A source written for C++17 (nvcc's default) may define its own lerp, as
// cuda-samples' helper_math.h does: C++20's std::lerp stays out of its way.
inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }

__device__ __noinline__ float quarter(unsigned int i) { return 0.25f * i; }
__attribute__((__noinline__)) float host_half(float x) { return 0.5f * x; }

__global__ void mix(float* out) { out[threadIdx.x] = lerp(0.0f, 8.0f, quarter(threadIdx.x)); }

int main() {
  int mode = -1;
  bool ok = check(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0), "cudaDeviceGetAttribute");
  ok = ok && mode == cudaComputeModeDefault;
  float* out = nullptr;
  ok = ok && check(cudaMallocManaged(&out, 4 * sizeof(float)), "cudaMallocManaged");
  mix<<<1, 4>>>(out);
  ok = ok && check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  ok = ok && out[0] == 0.0f && out[1] == 2.0f && out[3] == 6.0f;
  const float4 v = make_float4(1, 2, 3, 4);
  ok = ok && v.w == 4.0f && host_half(*std::make_unique<float>(3.0f)) == 1.5f;
  std::printf("compute mode %d, lerp %.1f %.1f\n%s\n", mode, out[1], out[3], ok ? "PASSED" : "FAILED");
  cudaFree(out);
  return ok ? 0 : 1;
}
