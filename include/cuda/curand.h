// cuRAND's types and constants, as <curand.h> declares them. cusim provides
// cuRAND's device API (<curand_kernel.h>: generators that kernels run); the
// host API, which launches NVIDIA's own generator kernels (curandCreateGenerator,
// curandGenerateUniform, ...), is a GPU library cusim does not provide. Its
// functions are declared so that a call fails to compile with a message
// naming the function and the alternative, instead of "not declared".
#pragma once
#ifndef CURAND_H_
#define CURAND_H_
#endif
// As NVIDIA's: code that includes only <curand_kernel.h> uses cudaStream_t.
#include "cuda_runtime.h"
#include <cusim/detail/unsupported_runtime.hpp>  // not_provided

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 4
#define CURAND_VER_PATCH 0
#define CURAND_VER_BUILD 35
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;

enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
};
typedef enum curandOrdering curandOrdering_t;

struct curandGenerator_st;
typedef struct curandGenerator_st* curandGenerator_t;

// A host-API function: any call stops the build here, naming the function.
#define CUSIM_CURAND_HOST_FUNCTION_(name)                                                              \
  template <class... Args>                                                                            \
  curandStatus_t name(Args...) {                                                                      \
    static_assert(cusim::detail::not_provided<Args...>,                                               \
                  #name ": cuRAND's host API is a GPU library that cusim does not provide. Generate "  \
                  "the numbers in a kernel with <curand_kernel.h> (curand_init, curand_uniform, "       \
                  "curand_normal, ...), which cusim runs; see docs/libraries.md.");                    \
    return CURAND_STATUS_ARCH_MISMATCH;                                                                \
  }

CUSIM_CURAND_HOST_FUNCTION_(curandCreateGenerator)
CUSIM_CURAND_HOST_FUNCTION_(curandCreateGeneratorHost)
CUSIM_CURAND_HOST_FUNCTION_(curandDestroyGenerator)
CUSIM_CURAND_HOST_FUNCTION_(curandGetVersion)
CUSIM_CURAND_HOST_FUNCTION_(curandGetProperty)
CUSIM_CURAND_HOST_FUNCTION_(curandSetStream)
CUSIM_CURAND_HOST_FUNCTION_(curandSetPseudoRandomGeneratorSeed)
CUSIM_CURAND_HOST_FUNCTION_(curandSetGeneratorOffset)
CUSIM_CURAND_HOST_FUNCTION_(curandSetGeneratorOrdering)
CUSIM_CURAND_HOST_FUNCTION_(curandSetQuasiRandomGeneratorDimensions)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerate)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateLongLong)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateUniform)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateUniformDouble)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateNormal)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateNormalDouble)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateLogNormal)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateLogNormalDouble)
CUSIM_CURAND_HOST_FUNCTION_(curandGeneratePoisson)
CUSIM_CURAND_HOST_FUNCTION_(curandGenerateSeeds)
CUSIM_CURAND_HOST_FUNCTION_(curandCreatePoissonDistribution)
CUSIM_CURAND_HOST_FUNCTION_(curandDestroyDistribution)
CUSIM_CURAND_HOST_FUNCTION_(curandGetDirectionVectors32)
CUSIM_CURAND_HOST_FUNCTION_(curandGetDirectionVectors64)
CUSIM_CURAND_HOST_FUNCTION_(curandGetScrambleConstants32)
CUSIM_CURAND_HOST_FUNCTION_(curandGetScrambleConstants64)

#undef CUSIM_CURAND_HOST_FUNCTION_
