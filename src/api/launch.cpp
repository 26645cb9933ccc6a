// Kernel launches, in four steps, each in one place here:
//   1. validate: the checks a GPU makes before it accepts a launch (validate,
//      resolve_cluster), on the calling thread, so that a bad configuration
//      is the launch's own error;
//   2. plan: how the grid runs on the workers (plan_grid: residency, stacks,
//      how many workers);
//   3. enqueue: a launch from the host is queued (api/device_queue.hpp)
//      behind the work before it in its stream (launch_kernel); one from
//      device code is recorded with its block (record_device_launch,
//      sched/children.hpp runs it);
//   4. run: on the worker pool of the device thread that takes it, with
//      its tail launches after it (run_launch_tree).
#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <cuda_runtime_api.h>
#include <cusim/launch.hpp>
#include <cusim/profile.hpp>
#include <cusim/runtime.hpp>

#include "api/device_queue.hpp"
#include "api/device_runtime.hpp"
#include "api/kernel_report.hpp"
#include "api/occupancy.hpp"
#include "api/streams.hpp"
#include "runtime/errors.hpp"
#include "runtime/kernels.hpp"
#include "runtime/limits.hpp"
#include "sched/block.hpp"
#include "sched/pool.hpp"
#include "sched/race_check.hpp"
#include "sched/worker.hpp"
#include "support/diagnostics.hpp"
#include "trace/trace.hpp"

namespace cusim::detail {

namespace {

// Each device thread runs one launch tree at a time, on a pool of its own;
// launches of different streams run on different device threads at once.
thread_local std::unique_ptr<worker_pool> pool;

worker_pool& pool_of_size(unsigned int workers) {
  if (!pool || pool->size() != workers) {
    pool.reset();
    pool = std::make_unique<worker_pool>(workers);
  }
  return *pool;
}

bool dims_within(const dim3& d, const int (&max)[3]) {
  return d.x >= 1 && d.y >= 1 && d.z >= 1 && d.x <= unsigned(max[0]) && d.y <= unsigned(max[1]) &&
         d.z <= unsigned(max[2]);
}

// 1. Validate. The checks a GPU makes before it accepts a launch. On sm_90 with CUDA 13
// every one of these failures is cudaErrorInvalidValue (measured), but a
// block whose registers do not fit (cudaErrorLaunchOutOfResources).
cudaError_t validate(const launch_shape& shape, const kernel_info& kernel, const void* function,
                     std::size_t& shared_limit, std::string& why) {
  const device_profile& p = active_profile();
  const auto refuse = [&](std::string reason) {
    why = std::move(reason);
    return cudaErrorInvalidValue;
  };
  const auto dims = [](const dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); };
  const auto limits = [](const int (&max)[3]) { return fmt::format("({},{},{})", max[0], max[1], max[2]); };
  if (!dims_within(shape.block, p.max_block_dim)) {
    return refuse(fmt::format("the block {} is empty or exceeds the device's block limits {} ({})", dims(shape.block),
                              limits(p.max_block_dim), p.name));
  }
  const unsigned long long threads = 1ull * shape.block.x * shape.block.y * shape.block.z;
  if (threads > unsigned(p.max_threads_per_block)) {
    return refuse(fmt::format("the block has {} threads; the device ({}) allows {}", threads, p.name,
                              p.max_threads_per_block));
  }
  // The kernel was compiled for at most __launch_bounds__' threads per block.
  if (const launch_bounds bounds = compiled_launch_bounds(function);
      bounds.max_threads != 0 && threads > bounds.max_threads) {
    const char* name = registered_name(function);
    report("kernel {} declares __launch_bounds__({}) but is launched with {} threads per block{}: a GPU refuses the "
           "launch (cudaErrorInvalidValue).",
           name != nullptr ? name : "?", bounds.max_threads, threads,
           shape.file != nullptr ? fmt::format(" at {}:{}", shape.file, shape.line) : std::string());
    return refuse(fmt::format("the block has {} threads, more than the kernel's __launch_bounds__({})", threads,
                              bounds.max_threads));
  }
  if (!dims_within(shape.grid, p.max_grid_dim)) {
    return refuse(fmt::format("the grid {} is empty or exceeds the device's grid limits {} ({})", dims(shape.grid),
                              limits(p.max_grid_dim), p.name));
  }
  // Only where the kernel's registers are known (api/occupancy.hpp).
  if (too_many_registers(function, unsigned(threads))) {
    const char* name = registered_name(function);
    report("kernel {} uses {} registers a thread ({}): a block of {} threads needs more than the {} a block may "
           "have, and a GPU refuses the launch (cudaErrorLaunchOutOfResources).",
           name != nullptr ? name : "?", registers_of(function).per_thread, registers_of(function).source, threads,
           p.regs_per_block);
    why = "the block needs more registers than a block may have";
    return cudaErrorLaunchOutOfResources;
  }

  const std::size_t static_bytes = kernel.static_shared.load();
  const bool opted_in = kernel.max_dynamic_shared_set.load();
  const std::size_t max_dynamic = opted_in ? kernel.max_dynamic_shared.load()
                                           : p.shared_mem_per_block - std::min(static_bytes, p.shared_mem_per_block);
  shared_limit = opted_in ? p.shared_mem_per_block_optin : p.shared_mem_per_block;
  if (shape.dynamic_shared_bytes > max_dynamic || static_bytes + shape.dynamic_shared_bytes > shared_limit) {
    return refuse(fmt::format(
        "the block asks for {} bytes of dynamic shared memory on top of the kernel's {} static bytes; it may have {} "
        "in all{}",
        shape.dynamic_shared_bytes, static_bytes, opted_in ? std::min(shared_limit, static_bytes + max_dynamic) : shared_limit,
        opted_in ? "" : " (cudaFuncSetAttribute with cudaFuncAttributeMaxDynamicSharedMemorySize raises it)"));
  }
  if (shape.cooperative) {
    // Every block must be resident at once: at most what the occupancy
    // rules let each multiprocessor hold, times the multiprocessors.
    const unsigned long long blocks = 1ull * shape.grid.x * shape.grid.y * shape.grid.z;
    const int per_sm =
        resident_blocks_per_multiprocessor(kernel, function, unsigned(threads), shape.dynamic_shared_bytes);
    if (blocks > 1ull * unsigned(per_sm) * unsigned(p.multiprocessor_count)) {
      why = fmt::format("a cooperative grid of {} blocks; at most {} ({} per multiprocessor) can be resident at once",
                        blocks, per_sm * p.multiprocessor_count, per_sm);
      return cudaErrorCooperativeLaunchTooLarge;
    }
  }
  return cudaSuccess;
}

// The launch's cluster shape: the kernel's __cluster_dims__ or required
// cluster size, else the launch attribute, else one block. Checked as an
// sm_90 checks it: only where the profile has clusters, the grid a multiple
// of it, at most 8 blocks (16 with cudaFuncAttributeNonPortableClusterSizeAllowed).
cudaError_t resolve_cluster(launch_shape& shape, const kernel_info& kernel, const void* function) {
  const dim3 compiled = compiled_cluster_dims(function);
  const dim3 required(kernel.required_cluster[0].load(), kernel.required_cluster[1].load(),
                      kernel.required_cluster[2].load());
  const auto given = [](dim3 d) { return d.x != 0 && d.y != 0 && d.z != 0; };
  const auto same = [](dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; };
  dim3 cluster = given(compiled) ? compiled : given(required) ? required : dim3(1, 1, 1);
  if (given(shape.cluster)) {
    if ((given(compiled) || given(required)) && !same(cluster, shape.cluster)) return cudaErrorInvalidClusterSize;
    cluster = shape.cluster;
  }
  const unsigned long long size = 1ull * cluster.x * cluster.y * cluster.z;
  const device_profile& p = active_profile();
  if (size > 1 && p.max_cluster_size == 0) return cudaErrorInvalidClusterSize;
  if (shape.grid.x % cluster.x != 0 || shape.grid.y % cluster.y != 0 || shape.grid.z % cluster.z != 0) {
    return cudaErrorInvalidClusterSize;
  }
  const unsigned long long limit = kernel.non_portable_cluster_size.load() ? 2ull * unsigned(p.max_cluster_size)
                                                                           : unsigned(p.max_cluster_size);
  if (size > 1 && size > limit) return cudaErrorInvalidClusterSize;
  shape.cluster = cluster;
  return cudaSuccess;
}

}  // namespace

namespace {

constexpr unsigned int legacy_max_nesting_depth = 24;

// A device-side launch is pending from its launch until its grid completes;
// cudaLimitDevRuntimePendingLaunchCount bounds how many may be. On a GPU the
// children of a thread that launches in a loop start, and complete, while it
// goes on; cusim's start when their block waits for them: so when the buffer
// is full and the block has children of its own, it waits for them first.
// Only a buffer full of grids that cannot complete (a chain of nested
// launches, each waiting for its child) refuses the launch.
bool reserve_pending_launch(launch_tree& tree) {
  std::size_t limit = 0;
  read_limit(cudaLimitDevRuntimePendingLaunchCount, limit);
  for (;;) {
    if (tree.pending_launches.fetch_add(1) < limit) return true;
    tree.pending_launches.fetch_sub(1);
    if (!worker::current()->block_has_children()) return false;
    worker::current()->wait_for_block_children();
  }
}

// 2. Plan: how a grid runs on the device thread's workers.
struct grid_plan {
  worker_settings settings;
  unsigned int workers;  // how many of the pool's workers take its blocks
};

grid_plan plan_grid(const grid_job& grid) {
  const device_profile& p = active_profile();
  // A cooperative grid runs on one worker with every block resident, so
  // that grid.sync() waits with no thread on another OS thread to wake. A
  // worker holds at least one whole cluster.
  const launch_shape& shape = grid.shape();
  const unsigned int resident = shape.cooperative ? unsigned(grid.block_count())
                                                  : std::max(resident_blocks_per_worker(), grid.cluster_blocks());
  // Race checking gives each CUDA thread a fresh window of its fiber's
  // stack (fiber::fresh_stack_window): many windows, committed only when used.
  const std::size_t stack_bytes =
      race::enabled ? fiber::race_stack_windows * fiber::race_stack_window_bytes : fiber_stack_bytes();
  unsigned int workers = shape.cooperative ? 1u : worker_count();
  if (worker::thread_identities_limited() && workers > 1) {
    // Each worker keeps `resident` blocks alive: fewer workers take part
    // where more would make ThreadSanitizer follow more threads than it can
    // (it ends the program: "Thread limit exceeded").
    const std::uint64_t per_worker = std::uint64_t{resident} * grid.threads_per_block();
    workers = unsigned(std::clamp<std::uint64_t>(worker::limited_resident_threads / per_worker, 1, workers));
  }
  return {{stack_bytes, resident, std::max(1u, resident_blocks_per_worker()), p.shared_mem_per_block_optin + 4096,
           current_device()},
          workers};
}

// The blocks beyond the workers' usual number that threads spinning for
// another block's work may bring in (worker::room_for_spinners): what the
// device holds at once, less what the workers hold anyway.
long spin_room(const grid_job& grid, const grid_plan& plan) {
  const launch_shape& shape = grid.shape();
  if (shape.cooperative) return 0;  // every block is resident already
  const long per_multiprocessor = resident_blocks_per_multiprocessor(
      grid.kernel(), grid.invocation().function, grid.threads_per_block(), shape.dynamic_shared_bytes);
  const long device = per_multiprocessor * active_profile().multiprocessor_count;
  const long usual_blocks = long(plan.workers) * long(plan.settings.resident_blocks);
  const long room = std::max(0L, device - usual_blocks);
  if (!worker::thread_identities_limited()) return room;
  const long spare_threads = long(worker::limited_resident_threads) - usual_blocks * long(grid.threads_per_block());
  return std::clamp(spare_threads / long(grid.threads_per_block()), 0L, room);
}

// 4. Run. Runs a launch from the host, then its tail launches (and theirs) in
// order, each after everything before it has finished. Device-side launches
// other than tail launches run on the worker of the block that made them
// (sched/children.hpp). Returns the first grid's own outcome.
cudaError_t run_launch_tree(child_launch first, launch_tree& tree) {
  std::deque<child_launch> queue;
  queue.push_back(std::move(first));
  bool first_grid = true;
  while (!queue.empty()) {
    child_launch next = std::move(queue.front());
    queue.pop_front();
    grid_job grid(next.shape, std::move(next.invocation), *next.kernel, next.shared_limit);
    grid.depth = next.depth;
    grid.tree = &tree;
    grid.trace_flow = next.trace_flow;
    if (race::enabled && next.shape.cooperative && grid.block_count() * grid.threads_per_block() > 7000) {
      // Every thread of a cooperative grid is alive at once, each a fiber
      // ThreadSanitizer must follow, and it follows at most 8128.
      report("race checking cannot run kernel {}: its cooperative launch keeps {} threads alive at once, and "
             "ThreadSanitizer follows at most 8128. The launch fails with cudaErrorNotSupported; check the kernel "
             "with a smaller grid.",
             grid.kernel_name(), grid.block_count() * grid.threads_per_block());
      return cudaErrorNotSupported;
    }
    const grid_plan plan = plan_grid(grid);
    grid.set_spin_room(spin_room(grid, plan));
    const auto started = std::chrono::steady_clock::now();
    worker_pool& workers = pool_of_size(worker_count());
    workers.run(grid, plan.settings, plan.workers);
    if (kernel_report_on()) {
      report_kernel(grid, first_grid, std::chrono::steady_clock::now() - started, grid.error(),
                    {workers.deepest_stack_use(), plan.settings.stack_bytes});
    }

    std::vector<child_launch> tails = grid.take_tail_launches();
    if (!first_grid) tree.pending_launches.fetch_sub(1);  // a tail launch, now complete
    const cudaError_t outcome = grid.error();
    if (outcome != cudaSuccess && outcome != cudaErrorInvalidValue) make_sticky(outcome);
    if (first_grid && outcome != cudaSuccess) return outcome;
    first_grid = false;
    if (outcome != cudaSuccess) break;  // an aborted grid's tail launches never start
    queue.insert(queue.begin(), std::make_move_iterator(tails.begin()), std::make_move_iterator(tails.end()));
  }
  return cudaSuccess;
}

// Why a launch of `function` was refused, for CUSIM_VERBOSE's report.
std::string launch_refusal(const void* function, const std::string& why) {
  const char* name = registered_name(function);
  return fmt::format("the launch of kernel {}: {}", name != nullptr ? name : "?", why);
}

// A launch from device code: checked as the device runtime checks it, then
// recorded with the launching block (or, for a tail launch, its grid). A
// child may start any time after its launch: cusim starts the block's
// children when one of its threads synchronises on them (legacy model) or
// when all its threads have exited.
cudaError_t record_device_launch(const launch_shape& requested, kernel_invocation invocation, const void* race_token) {
  if (cudaError_t e = check_launch_stream(requested.stream, invocation.function, invocation.name, requested.file,
                                          requested.line)) {
    return e;
  }
  if (cudaError_t e = check_child_arguments(invocation, requested)) return e;
  block_state& block = *current_thread->block;
  grid_job& parent = block.grid();
  kernel_info& kernel = kernel_record(invocation.function);
  std::size_t shared_limit = 0;
  launch_shape shape = requested;
  std::string why;
  if (validate(shape, kernel, invocation.function, shared_limit, why) != cudaSuccess) {
    return set_error(cudaErrorInvalidConfiguration, launch_refusal(invocation.function, why).c_str());
  }
  if (cudaError_t e = resolve_cluster(shape, kernel, invocation.function)) return set_error(e);
  // A tail launch runs after its launcher has finished, in its place: at its
  // depth. The legacy model has a nesting limit; the CUDA 12 model has none
  // (an H100 ran a chain of 2048 nested grids, stopped by the pending-launch
  // limit).
  const bool tail = shape.stream == cudaStreamTailLaunch;
  const unsigned int depth = tail ? parent.depth : parent.depth + 1;
  if (legacy_dynamic_parallelism() && depth > legacy_max_nesting_depth) {
    return set_error(cudaErrorLaunchMaxDepthExceeded);
  }
  if (!reserve_pending_launch(*parent.tree)) return set_error(cudaErrorLaunchPendingCountExceeded);
  child_launch child{shape, std::move(invocation), &kernel, shared_limit, depth, race_token};
  ++current_thread->activity->device_launches;
  if (trace::enabled) child.trace_flow = trace::device_launch(block.trace_identity());
  if (tail) {
    parent.add_tail_launch(std::move(child));
  } else {
    block.launched.push_back(std::move(child));
  }
  return cudaSuccess;
}

cudaError_t launch_from_device(const launch_shape& requested, kernel_invocation invocation) {
  // Race checking: what the launching thread did happens before the child
  // grid. The token is released under the thread's own identity, the
  // bookkeeping done under the runtime's.
  const void* token = race::fresh_token();
  race::release(token);
  race::runtime_scope bookkeeping;
  return record_device_launch(requested, std::move(invocation), token);
}

// A launch from the host: checked, then queued in its stream. `refusal`:
// why the checks refused it, where they say.
cudaError_t launch_from_host(const launch_shape& requested, kernel_invocation invocation, std::string& refusal) {
  if (cudaError_t e = check_host_stream(requested.stream)) return set_error(e);
  kernel_info& kernel = kernel_record(invocation.function);
  std::size_t shared_limit = 0;
  launch_shape shape = requested;
  std::string why;
  if (cudaError_t e = validate(shape, kernel, invocation.function, shared_limit, why)) {
    refusal = launch_refusal(invocation.function, why);
    return set_error(e, refusal.c_str());
  }
  if (cudaError_t e = resolve_cluster(shape, kernel, invocation.function)) return set_error(e);

  // 3. Enqueue. The launch runs on the device thread, after the work queued
  // before it; the host goes on. std::function needs a copyable callable: the
  // invocation's arguments are shared.
  // The work may run many times (a graph's kernel node): each run copies the launch.
  auto launch =
      std::make_shared<const child_launch>(child_launch{shape, std::move(invocation), &kernel, shared_limit, 0});
  std::function<void()> run = [launch] {
    static std::atomic<std::uint64_t> next_tree{1};
    launch_tree tree;
    tree.serial = next_tree.fetch_add(1, std::memory_order_relaxed);
    const cudaError_t outcome = run_launch_tree(*launch, tree);
    forget_device_objects(tree.serial);
    // A grid refused at run time (static shared memory too large; too big to
    // check for races) fails its own launch, not the context.
    if (outcome == cudaErrorInvalidValue || outcome == cudaErrorNotSupported) defer_launch_error(outcome);
  };
  // Like a GPU launch: a fault shows up at the next synchronisation.
  return enqueue(shape.stream, std::move(run), cudaGraphNodeTypeKernel, false, "a kernel launch", nullptr, 0,
                 launch->invocation.name != nullptr ? launch->invocation.name : "a kernel");
}

}  // namespace

cudaError_t launch_kernel(const launch_shape& requested, kernel_invocation invocation) {
  if (cudaError_t e = context_error()) return e;
  if (invocation.function == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  if (current_thread != nullptr) return launch_from_device(requested, std::move(invocation));
  std::string refusal;
  const cudaError_t e = launch_from_host(requested, std::move(invocation), refusal);
  // A <<<>>> launch returns nothing: its error reaches the program only if
  // it asks (cudaGetLastError), which errors.hpp checks it does.
  if (e != cudaSuccess && requested.file != nullptr) note_failed_launch(e, refusal, requested.file, requested.line);
  return e;
}

}  // namespace cusim::detail

namespace {

cudaError_t launch_registered(const void* func, const cusim::detail::launch_shape& shape, void** args,
                              const char* api) {
  using namespace cusim::detail;
  if (cudaError_t e = context_error()) return e;
  const char* name = nullptr;
  argument_array_launcher launch = func != nullptr ? registered_launcher(func, &name) : nullptr;
  if (launch == nullptr) {
    report("{}: {} is not a kernel cusim knows: kernels compiled by cusim-cc are known, and every instance of a "
           "kernel template the program makes (a kernel from a file cusim-cc did not compile is not); pass the "
           "kernel itself rather than a void* to it",
           api, func);
    return set_error(cudaErrorInvalidDeviceFunction);
  }
  if (args == nullptr) {
    // Allowed for a kernel without parameters (a graph's kernel node often passes none).
    const parameter_layout layout = registered_layout(func);
    if (layout == nullptr || layout(nullptr, nullptr, 0) != 0) return set_error(cudaErrorInvalidValue);
    static void* no_arguments[1] = {nullptr};
    args = no_arguments;
  }
  return launch(func, shape, args, name);
}

}  // namespace

namespace cusim::detail {
launch_shape launch_shape_of(const cudaLaunchConfig_t& config) {
  launch_shape shape{config.gridDim, config.blockDim, config.dynamicSmemBytes, config.stream};
  for (unsigned int i = 0; i < config.numAttrs && config.attrs != nullptr; ++i) {
    const cudaLaunchAttribute& a = config.attrs[i];
    if (a.id == cudaLaunchAttributeCooperative) shape.cooperative = a.val.cooperative != 0;
    if (a.id == cudaLaunchAttributeClusterDimension) {
      shape.cluster = dim3(a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
    }
  }
  return shape;
}
}  // namespace cusim::detail

extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return cusim::detail::set_error(cudaErrorInvalidValue);
  return launch_registered(func, cusim::detail::launch_shape_of(*config), args, "cudaLaunchKernelExC");
}

extern "C" cudaError_t cudaLaunchKernel(const void* func, dim3 grid_dim, dim3 block_dim, void** args, size_t sharedMem,
                                        cudaStream_t stream) {
  return launch_registered(func, {grid_dim, block_dim, sharedMem, stream, false}, args, "cudaLaunchKernel");
}

extern "C" cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid_dim, dim3 block_dim, void** args,
                                                   size_t sharedMem, cudaStream_t stream) {
  return launch_registered(func, {grid_dim, block_dim, sharedMem, stream, true}, args, "cudaLaunchCooperativeKernel");
}

extern "C" cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  using namespace cusim::detail;
  if (cudaError_t e = context_error()) return e;
  if (func == nullptr) return set_error(cudaErrorInvalidDeviceFunction);
  kernel_info& kernel = kernel_record(func);
  const cusim::device_profile& p = cusim::active_profile();
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      const std::size_t static_bytes = kernel.static_shared.load();
      if (value < 0 || std::size_t(value) + static_bytes > p.shared_mem_per_block_optin) {
        return set_error(cudaErrorInvalidValue);
      }
      kernel.max_dynamic_shared.store(std::size_t(value));
      kernel.max_dynamic_shared_set.store(true);
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return set_error(cudaErrorInvalidValue);
      return cudaSuccess;  // a hint: no effect on the CPU
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
      if (value < 0 || p.max_cluster_size == 0) return set_error(cudaErrorInvalidValue);
      kernel.required_cluster[attr - cudaFuncAttributeRequiredClusterWidth].store(unsigned(value));
      return cudaSuccess;
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
      if (value < 0 || value > 1 || p.max_cluster_size == 0) return set_error(cudaErrorInvalidValue);
      kernel.non_portable_cluster_size.store(value == 1);
      return cudaSuccess;
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
      return cudaSuccess;  // a hint
    default:
      return set_error(cudaErrorInvalidValue);
  }
}
