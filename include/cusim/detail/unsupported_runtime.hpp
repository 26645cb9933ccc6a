// Runtime API functions cusim does not provide, declared so that a call
// stops the build at the call, naming the function and the feature (as
// curand.h does for cuRAND's host API), rather than "was not declared".
// Each is a template whose body asserts: code that only names it in a
// branch it never compiles (templates, `if constexpr`) still builds.
// docs/api-coverage.md lists them.
#pragma once
#include <driver_types.h>
#include <texture_types.h>

namespace cusim::detail {
// False, known only once a call instantiates the function: a static_assert
// on it fires at the call, not at the declaration (curand.h uses it too).
template <class... Args>
inline constexpr bool not_provided = sizeof...(Args) < 0;
}  // namespace cusim::detail

#define CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(name, why)                                        \
  template <class... Args>                                                                   \
  cudaError_t name(Args...) {                                                                \
    static_assert(cusim::detail::not_provided<Args...>, #name ": " why);                   \
    return cudaErrorNotSupported;                                                            \
  }

// Inter-process handles: cusim's device memory and events belong to one process.
#define CUSIM_IPC_WHY_                                                                               \
  "inter-process memory and event handles are not supported: cusim's device memory and events "    \
  "live in one process (see docs/api-coverage.md). Share the data through the host, or run the "   \
  "processes' work in one program."
struct cudaIpcMemHandle_st {
  char reserved[64];
};
typedef struct cudaIpcMemHandle_st cudaIpcMemHandle_t;
struct cudaIpcEventHandle_st {
  char reserved[64];
};
typedef struct cudaIpcEventHandle_st cudaIpcEventHandle_t;
#define cudaIpcMemLazyEnablePeerAccess 0x01
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaIpcGetMemHandle, CUSIM_IPC_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaIpcOpenMemHandle, CUSIM_IPC_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaIpcCloseMemHandle, CUSIM_IPC_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaIpcGetEventHandle, CUSIM_IPC_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaIpcOpenEventHandle, CUSIM_IPC_WHY_)
#undef CUSIM_IPC_WHY_

// Mipmapped arrays: textures read one level here (docs/textures.md).
#define CUSIM_MIPMAP_WHY_                                                                          \
  "mipmapped arrays are not supported yet: a texture object reads a cudaArray (one level); see "  \
  "docs/textures.md."
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaMallocMipmappedArray, CUSIM_MIPMAP_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaGetMipmappedArrayLevel, CUSIM_MIPMAP_WHY_)
CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_(cudaFreeMipmappedArray, CUSIM_MIPMAP_WHY_)
#undef CUSIM_MIPMAP_WHY_

#undef CUSIM_UNSUPPORTED_RUNTIME_FUNCTION_
