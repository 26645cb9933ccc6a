// cusim's cuda_runtime.h: what a .cu file sees when nvcc compiles it, for the
// host compiler. cusim-cc puts this directory first on the include path.
#pragma once
// NVIDIA's include guard, which code tests to learn what is included
// (cuda-samples' helper_cuda.h declares checkCudaErrors under it).
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif

// cusim compiles sources written for C++17 (nvcc's default) as C++20, whose
// <math.h> adds std::lerp to the global namespace, where CUDA code (such as
// cuda-samples' helper_math.h) defines its own lerp. For such sources the
// standard one is declared under another name; std::lerp is C++20's anyway.
#if defined(__CUSIM_SOURCE_CPLUSPLUS__) && __CUSIM_SOURCE_CPLUSPLUS__ < 202002L && !defined(lerp)
#define lerp cusim_cxx20_lerp_
#include <cmath>
#include <math.h>
#undef lerp
#endif

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_runtime_api.h"
#include "driver_types.h"
#include "vector_types.h"
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/device_heap.hpp>
#include <cusim/detail/device_memory_functions.hpp>
#include <cusim/detail/device_functions.hpp>
#include <cusim/detail/inline_ptx.hpp>
#include <cusim/detail/texture_functions.hpp>
#include "channel_descriptor.h"
#include <cusim/detail/device_math.hpp>
#include <cusim/detail/warp_functions.hpp>
#include <cusim/launch.hpp>

// Execution-space and memory-space qualifiers. Kernels and device functions
// are ordinary C++ functions; __device__ and __constant__ variables are
// ordinary globals that every CUDA thread shares.
// NVIDIA's host_defines.h defines them; Thrust's CUDA system undefines them
// before including the runtime's headers unless its guard says they are
// there (thrust/system/cuda/detail/guarded_cuda_runtime_api.h).
#define __HOST_DEFINES_H__
#if defined(__CUSIM_KERNEL_FACTS__)
// cusim-cc's front end parses the file with clang as CUDA (host side), to
// learn each kernel's facts (tools/cusim-cc/kernel_facts.hpp): the
// qualifiers are clang's CUDA attributes, and <<<>>> needs the launch
// configuration call clang lowers it to.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...)
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, void* stream = nullptr);
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = nullptr);
// Device code's placement new: <new>'s is a host function there (as in
// clang's own CUDA headers). The front end parses cusim's headers as
// __host__ __device__; these must be __device__ only.
#include <new>
#pragma clang force_cuda_host_device end
__attribute__((device)) inline void* operator new(size_t, void* place) noexcept { return place; }
__attribute__((device)) inline void* operator new[](size_t, void* place) noexcept { return place; }
__attribute__((device)) inline void operator delete(void*, void*) noexcept {}
__attribute__((device)) inline void operator delete[](void*, void*) noexcept {}
#pragma clang force_cuda_host_device begin
#elif defined(__CUSIM_CC__)
// cusim-cc's rewriter reads this marker to learn which functions are kernels
// (and which kernels are templates, whose launches deduce their arguments),
// and removes it.
#define __global__ __cusim_global__
// __cluster_dims__(x, y, z) reaches the rewriter too, which records the
// kernel's cluster shape with its registration (non-template kernels).
#define __cluster_dims__(...) __cusim_cluster_dims__(__VA_ARGS__)
// And __launch_bounds__: launches of more threads than its maximum fail, as
// on a GPU (non-template kernels).
#define __launch_bounds__(...) __cusim_launch_bounds__(__VA_ARGS__)
// So does __device__: in device functions, malloc/free/new/delete use the
// device heap.
#define __device__ __cusim_device__
// And __host__: with __device__, a function whose body depends on
// __CUDA_ARCH__ keeps both passes' bodies (tools/cusim-cc/device_pass.hpp).
#define __host__ __cusim_host__
#else
#define __global__
#define __cluster_dims__(...)
#define __device__
#define __host__
#endif
#if !defined(__CUSIM_CC__) && !defined(__CUSIM_KERNEL_FACTS__)
#define __constant__  // plain globals here; cusim-cc also registers them (__isConstant)
#endif
// No __noinline__ macro, as in CUDA 13's headers: libstdc++ writes
// __attribute__((__noinline__)), which such a macro breaks for every file
// that includes <memory> after this header (cuda-samples' deviceQuery.cpp).
// In .cu files cusim-cc's rewriter spells the specifier out.
#define __managed__
// Thrust runs on its C++ system, with cusim's device memory
// (include/cuda/thrust/system/cpp/memory_resource.h; docs/libraries.md).
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
// CUB picks its algorithms and tuning policies by the architecture it
// compiles for: CUB_PTX_ARCH, __CUDA_ARCH__ in nvcc's device pass and 0 in
// its host pass. cusim compiles one pass for both (docs/cusim-cc.md): the
// profile's architecture, the PTX version cudaFuncGetAttributes reports,
// so that the tuning a device-wide algorithm's host code picks at run time
// is the one its kernels were compiled with (docs/libraries.md, CUB).
#if !defined(CUB_PTX_ARCH) && !defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_LIST__)
#define CUB_PTX_ARCH __CUDA_ARCH_LIST__
#endif
// A hint, as inlining is on a GPU: g++ makes always_inline an error
// wherever it cannot inline (a __forceinline__ function passed by pointer,
// as llm.c passes its reduction operators to cooperative_groups::reduce),
// where nvcc takes the program. Optimised builds inline what is small anyway.
#if defined(__clang__)
#define __forceinline__ inline __attribute__((always_inline))
#else
#define __forceinline__ inline
#endif
#if !defined(__CUSIM_CC__) && !defined(__CUSIM_KERNEL_FACTS__)
#define __launch_bounds__(...)
#endif
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#ifndef __CUSIM__
#define __CUSIM__ 1
#endif

// Shared memory must be per block, which a plain declaration cannot be:
// cusim-cc rewrites __shared__ declarations; without it, say so clearly.
#if !defined(__CUSIM_CC__) && !defined(__CUSIM_KERNEL_FACTS__)
#define __shared__                                                                                          \
  _Pragma("GCC error \"__shared__ needs cusim-cc: build .cu files with cusim-cc, or declare shared memory with CUSIM_SHARED(type, name)\"")
#endif
