// Type erasure of a kernel launch: the function, a copy of its arguments
// (kernel parameters are passed by value, as on a GPU) and a way to run one
// CUDA thread of it.
#pragma once
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include <driver_types.h>
#include <vector_types.h>

namespace cusim::detail {

struct kernel_invocation {
  void (*run_thread)(const void* call);  // calls the kernel once with the copied arguments
  std::shared_ptr<const void> call;      // owns the function pointer and arguments
  const void* function;                  // identifies the kernel (cudaFuncSetAttribute)
  const char* name;                      // for reports; may be null
};

template <class... Params>
struct kernel_call {
  using arguments_type = std::tuple<std::decay_t<Params>...>;
  void (*function)(Params...);
  arguments_type arguments;

  static void run_thread(const void* self) {
    const auto* call = static_cast<const kernel_call*>(self);
    std::apply(call->function, call->arguments);
  }
};

struct launch_shape {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes;
  cudaStream_t stream;
};

// Validates the launch against the active profile and runs it. Errors are
// recorded as the calling host thread's last error, as CUDA does.
cudaError_t launch_kernel(const launch_shape& shape, kernel_invocation invocation);

}  // namespace cusim::detail
