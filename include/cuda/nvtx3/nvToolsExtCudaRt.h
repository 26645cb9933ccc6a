// NVTX's names for CUDA runtime objects (<nvtx3/nvToolsExtCudaRt.h>):
// accepted, and nothing is done with them (nvToolsExt.h says why).
#pragma once
#include "cuda_runtime_api.h"
#include "nvToolsExt.h"

inline void nvtxNameCudaDeviceA(int, const char*) {}
inline void nvtxNameCudaDeviceW(int, const wchar_t*) {}
inline void nvtxNameCudaStreamA(cudaStream_t, const char*) {}
inline void nvtxNameCudaStreamW(cudaStream_t, const wchar_t*) {}
inline void nvtxNameCudaEventA(cudaEvent_t, const char*) {}
inline void nvtxNameCudaEventW(cudaEvent_t, const wchar_t*) {}

#ifdef UNICODE
#define nvtxNameCudaDevice nvtxNameCudaDeviceW
#define nvtxNameCudaStream nvtxNameCudaStreamW
#define nvtxNameCudaEvent nvtxNameCudaEventW
#else
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
#endif
