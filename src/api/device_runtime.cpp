#include "api/device_runtime.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "runtime/limits.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail {

cudaError_t synchronize_from_device() {
  if (!legacy_dynamic_parallelism()) {
    static std::once_flag told;
    std::call_once(told, [] {
      report("cudaDeviceSynchronize() in device code belongs to the legacy model of dynamic parallelism (CDP1), "
             "which CUDA 12 removed: nvcc builds it only for GPUs before sm_90, and only with "
             "-DCUDA_FORCE_CDP1_IF_SUPPORTED on the command line. Build with that definition to run it in the "
             "legacy model; a CUDA 12 kernel cannot wait for its children (a tail launch, "
             "cudaStreamTailLaunch, runs after them). It returns cudaErrorNotSupported.");
    });
    return set_error(cudaErrorNotSupported);
  }
  static std::once_flag noticed;
  std::call_once(noticed, [] {
    report("notice: device-side cudaDeviceSynchronize() (built with CUDA_FORCE_CDP1_IF_SUPPORTED) is the legacy "
           "dynamic-parallelism model, deprecated since CUDA 11.6: nvcc builds it only for GPUs before sm_90, "
           "and such a program fails to load on sm_90 and later. cusim runs it as CUDA 11 did. (Shown once.)");
  });
  // Grids the host launched are at depth 0: with the default limit of 2
  // ("two levels"), they and their children may synchronise, their
  // grandchildren may not (cudaErrorSyncDepthExceeded, the runtime's code
  // for exactly this; the appendix's text names cudaErrorLaunchMaxDepthExceeded).
  std::size_t sync_depth = 0;
  read_limit(cudaLimitDevRuntimeSyncDepth, sync_depth);
  if (current_thread->block->grid().depth >= sync_depth) return set_error(cudaErrorSyncDepthExceeded);
  worker::current()->wait_for_block_children();
  return cudaSuccess;
}

namespace {

// "shared" or "local" when `p` lies in memory a child grid cannot see; null otherwise.
const char* parent_only_space(const void* p) {
  worker& w = *worker::current();
  if (w.in_shared_memory(p)) return "shared";
  if (w.in_local_memory(p)) return "local";
  return nullptr;
}

const char* launched_name(const kernel_invocation& invocation) {
  const char* name = report_name(invocation.function, invocation.name);
  return name != nullptr ? name : "a kernel";
}

std::string launch_site(const launch_shape& shape) {
  return shape.file != nullptr ? fmt::format(" at {}:{}", shape.file, shape.line) : std::string();
}

}  // namespace

cudaError_t check_child_arguments(const kernel_invocation& invocation, const launch_shape& shape) {
  if (invocation.pointer_arguments == nullptr) return cudaSuccess;
  constexpr std::size_t capacity = 64;
  const void* pointers[capacity];
  const std::size_t count = std::min(capacity, invocation.pointer_arguments(invocation.call.get(), pointers, capacity));
  for (std::size_t i = 0; i < count; ++i) {
    if (pointers[i] == nullptr) continue;
    if (const char* space = parent_only_space(pointers[i])) {
      worker::current()->fail_grid(fmt::format(
          "the launch of {}{} passes, as argument {}, {}, a pointer into the launching {}'s {} memory. A child grid "
          "cannot see its parent's {} memory (undefined on a GPU): pass global memory (cudaMalloc, __device__ "
          "variables, the device heap) instead.",
          launched_name(invocation), launch_site(shape), i + 1, pointers[i],
          std::string_view(space) == "shared" ? "block" : "thread", space, space));
      return set_error(cudaErrorInvalidValue);
    }
  }
  return cudaSuccess;
}

namespace {

struct memory_operation : shared_call {
  void* dst;
  const void* src;  // null for a set
  int value;
  std::size_t count;
};

void run_memory_operation(const void* call) {
  const auto& op = *static_cast<const memory_operation*>(static_cast<const shared_call*>(call));
  if (op.src != nullptr) {
    copy_bytes(op.dst, op.src, op.count);
  } else {
    set_bytes(op.dst, op.value, op.count);
  }
}

void destroy_memory_operation(const shared_call* self) { delete static_cast<const memory_operation*>(self); }

// What identifies the two operations to the kernel registry.
const char copy_identity = 0, set_identity = 0;

}  // namespace

cudaError_t enqueue_device_memory_operation(void* dst, const void* src, int value, std::size_t count,
                                           cudaMemcpyKind kind, cudaStream_t stream) {
  // The device runtime copies only between device memory.
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return set_error(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  const bool copy = src != nullptr;
  if (dst == nullptr) return set_error(cudaErrorInvalidValue);
  for (const void* p : {static_cast<const void*>(dst), src}) {
    if (const char* space = p != nullptr ? parent_only_space(p) : nullptr) {
      worker::current()->fail_grid(fmt::format("{} was given {}, a pointer into {} memory: the device runtime "
                                               "copies and sets only global memory.",
                                               copy ? "cudaMemcpyAsync" : "cudaMemsetAsync", p, space));
      return set_error(cudaErrorInvalidValue);
    }
  }
  // A one-thread grid in the block's sequence keeps it in order with the
  // block's launches.
  call_reference op(new memory_operation{{1, &destroy_memory_operation}, dst, src, value, count});
  return launch_kernel({dim3(1), dim3(1), 0, stream},
                       {&run_memory_operation, std::move(op), copy ? &copy_identity : &set_identity,
                        copy ? "cudaMemcpyAsync" : "cudaMemsetAsync"});
}

}  // namespace cusim::detail

using namespace cusim::detail;

extern "C" void* cudaGetParameterBuffer(size_t alignment, size_t size) {
  if (current_thread == nullptr) {
    report("cudaGetParameterBuffer was called from host code: it belongs to the device runtime. It returns nullptr.");
    return nullptr;
  }
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  alignment = std::max<std::size_t>(alignment, alignof(std::max_align_t));
  const std::size_t bytes = std::max<std::size_t>(alignment, (size + alignment - 1) / alignment * alignment);
  return std::aligned_alloc(alignment, bytes);  // freed by the launch that takes it
}

extern "C" cudaError_t cudaLaunchDevice(void* func, void* parameterBuffer, dim3 gridDimension, dim3 blockDimension,
                                        unsigned int sharedMemSize, cudaStream_t stream) {
  if (current_thread == nullptr) {
    report("cudaLaunchDevice was called from host code: it belongs to the device runtime (host code launches with "
           "<<<>>> or cudaLaunchKernel).");
    return set_error(cudaErrorNotSupported);
  }
  const char* name = nullptr;
  const argument_array_launcher launcher = registered_launcher(func, &name);
  const parameter_layout layout = registered_layout(func);
  if (launcher == nullptr || layout == nullptr) {
    std::free(parameterBuffer);
    report("cudaLaunchDevice: {} is not a kernel cusim knows: kernels compiled by cusim-cc are known, and every "
           "instance of a kernel template the program makes.",
           func);
    return set_error(cudaErrorInvalidDeviceFunction);
  }
  constexpr std::size_t capacity = 256;
  void* args[capacity];
  if (layout(parameterBuffer, args, capacity) > capacity) {
    std::free(parameterBuffer);
    return set_error(cudaErrorInvalidValue);
  }
  // The launch copies the arguments out of the buffer: it is free then.
  const cudaError_t e =
      launcher(func, {gridDimension, blockDimension, sharedMemSize, stream}, args, name);
  std::free(parameterBuffer);
  return e;
}
