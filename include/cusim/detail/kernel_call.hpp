// Type erasure of a kernel launch: the function, a copy of its arguments
// (kernel parameters are passed by value, as on a GPU) and a way to run one
// CUDA thread of it.
#pragma once
#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cusim/detail/config.hpp>
#include <cusim/detail/thread_loop.hpp>
#include <driver_types.h>
#include <vector_types.h>

namespace cusim::detail {

// The start of every kernel_call: how many launches (a queued launch, a
// graph's kernel node and the execs made from it) share its arguments, and
// how to delete it. A shared_ptr would do, but <memory> brings <ostream>
// into every .cu file (atomic_cell.hpp says why that matters).
struct shared_call {
  mutable unsigned long references;
  void (*destroy)(const shared_call* self);
};

// A counted reference to a shared_call.
class call_reference {
 public:
  call_reference() = default;
  explicit call_reference(const shared_call* call) : call_(call) {}  // adopts the reference the call was made with
  call_reference(const call_reference& other) : call_(other.call_) { retain(); }
  call_reference(call_reference&& other) noexcept : call_(other.call_) { other.call_ = nullptr; }
  call_reference& operator=(call_reference other) noexcept {
    const shared_call* held = call_;
    call_ = other.call_;
    other.call_ = held;
    return *this;
  }
  ~call_reference() {
    if (call_ != nullptr && __atomic_sub_fetch(&call_->references, 1, __ATOMIC_ACQ_REL) == 0) call_->destroy(call_);
  }
  const void* get() const { return call_; }

 private:
  void retain() const {
    if (call_ != nullptr) __atomic_add_fetch(&call_->references, 1, __ATOMIC_RELAXED);
  }
  const shared_call* call_ = nullptr;
};

struct kernel_invocation {
  void (*run_thread)(const void* call);  // calls the kernel once with the copied arguments
  call_reference call;                   // owns the function pointer and arguments
  const void* function;                  // identifies the kernel (cudaFuncSetAttribute)
  const char* name;                      // for reports; may be null
  // Writes the value of each argument of pointer type (nullptr for the
  // others) to `out`, one per parameter, and returns the parameter count:
  // device-side launches check what they hand their child. May be null.
  std::size_t (*pointer_arguments)(const void* call, const void** out, std::size_t capacity) = nullptr;
  // Runs the thread `loop` holds and the block's next ones, in a loop of
  // the kernel's own (thread_loop.hpp): true when the last one ended the
  // block. May be null (then the scheduler calls run_thread for each).
  bool (*run_threads)(const void* call, thread_loop& loop) = nullptr;
  // Whether run_threads calls the kernel by name (direct_kernel_call), so
  // that the compiler could compile it into the loop: for the kernel report.
  bool called_by_name = false;
};

template <class T>
const void* pointer_or_null(const T& value) {
  if constexpr (std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>) {
    return const_cast<const void*>(static_cast<const volatile void*>(value));
  } else {
    return nullptr;
  }
}

// Kernel parameters reach the device as bytes, as on a GPU: no constructor
// or destructor of a parameter runs in device code. A parameter of a class
// type that the C++ ABI passes by address (it has a non-trivial copy
// constructor or destructor: CUDA by Example's Lock frees its memory in its
// destructor) is stored as its bytes; each CUDA thread gets its own copy of
// them and the kernel is called with their address, which is how such a
// parameter is passed (the Itanium C++ ABI, used on every platform cusim
// supports: the caller owns the object, so nothing destroys it). Other
// parameters are trivially copyable and are passed as themselves.
template <class T>
inline constexpr bool passed_by_address =
    std::is_class_v<T> && !(std::is_trivially_copy_constructible_v<T> && std::is_trivially_destructible_v<T>);
template <class T>
struct parameter_bytes {
  alignas(T) unsigned char bytes[sizeof(T)];
};
// A parameter of non-const lvalue reference type (`__global__ void
// k(Elem& e)`, as NVIDIA's unified-memory examples write it) is the
// argument's address, as nvcc passes it (a reference is an address in the
// ABI): the kernel's writes reach the argument, which on a GPU must be in
// managed memory. A const reference gets a copy, as a value parameter does
// (its argument is often a temporary, which the launch outlives).
template <class T>
inline constexpr bool passed_as_reference =
    std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>;
template <class T>
using stored_parameter =
    std::conditional_t<passed_as_reference<T>, std::remove_reference_t<T>*,
                       std::conditional_t<passed_by_address<T>, parameter_bytes<T>, std::decay_t<T>>>;
// What a launch converts its argument to on the host: the parameter's type,
// or a reference to the argument itself for a reference parameter.
template <class T>
using host_argument = std::conditional_t<passed_as_reference<T>, T, std::decay_t<T>>;
template <class T>
using abi_parameter = std::conditional_t<passed_by_address<T>, void*, T>;

// The bytes of `value` (by-address parameters), or `value` itself.
template <class T>
stored_parameter<T> store_parameter(const std::decay_t<T>& value) {
  if constexpr (passed_as_reference<T>) {
    return const_cast<std::remove_reference_t<T>*>(__builtin_addressof(value));  // the argument is not const
  } else if constexpr (passed_by_address<T>) {
    parameter_bytes<T> image;
    std::memcpy(image.bytes, static_cast<const void*>(__builtin_addressof(value)), sizeof(T));
    return image;
  } else {
    return value;
  }
}
// A CUDA thread's own copy of a by-address parameter, alive until the end of
// the call it is an argument of, which gets its address.
template <class T>
struct thread_copy {
  parameter_bytes<T> image;
  operator void*() && { return image.bytes; }
};
// What one thread passes for a parameter: its own copy of the bytes, or the
// stored value (which the call copies, trivially).
template <class T>
decltype(auto) thread_argument(const stored_parameter<T>& stored) {
  if constexpr (passed_as_reference<T>) {
    return *stored;
  } else if constexpr (passed_by_address<T>) {
    return thread_copy<T>{stored};
  } else {
    return (stored);
  }
}

// A launch's arguments for parameters `Params`, converted to the
// parameters' types on the host, as nvcc's launch stub takes them; the
// kernel gets what stored() makes of them (store_parameter). The launch
// keeps these copies until it is queued and then destroys them, as the
// stub does: a copy's destructor may free what the kernel uses (CUDA by
// Example's Lock calls cudaFree, which waits for the kernel), so it must
// not run before the kernel is queued.
template <class... Params>
struct host_arguments {
  template <class... Args>
  explicit host_arguments(Args&&... args) : copies(static_cast<Args&&>(args)...) {}
  std::tuple<stored_parameter<Params>...> stored() const {
    return std::apply(
        [](const auto&... value) { return std::tuple<stored_parameter<Params>...>(store_parameter<Params>(value)...); },
        copies);
  }
  const std::tuple<host_argument<Params>...> copies;
};

// One CUDA thread's call of a kernel by name, through `Direct` (a lambda
// that names it), with the thread's arguments made of those stored for
// parameters `Params` (thread_argument: a reference parameter's is the
// stored address). Launches by name and those that leave parameters to
// their defaults both call it.
template <class Direct, class... Params, class Arguments, std::size_t... I>
CUSIM_ALWAYS_INLINE void call_by_name(const Arguments& arguments, std::index_sequence<I...>) {
  Direct{}(thread_argument<Params>(std::get<I>(arguments))...);
}

template <class... Params>
struct kernel_call : shared_call {
  using arguments_type = std::tuple<stored_parameter<Params>...>;
  void (*function)(Params...);
  arguments_type arguments;

  // A new call holding the arguments, referenced once.
  static call_reference make(void (*function)(Params...), arguments_type arguments) {
    return call_reference(new kernel_call{{1, &destroy_call}, function, static_cast<arguments_type&&>(arguments)});
  }
  static void destroy_call(const shared_call* self) { delete of(self); }
  static const kernel_call* of(const void* self) {
    return static_cast<const kernel_call*>(static_cast<const shared_call*>(self));
  }

  static void run_thread(const void* self) { call_with_arguments(*of(self), std::index_sequence_for<Params...>{}); }
  static bool run_threads(const void* self, thread_loop& loop) {
    const kernel_call& call = *of(self);
    return loop.run([&] { call_with_arguments(call, std::index_sequence_for<Params...>{}); });
  }
  // Calls the function through the signature the ABI gives it (clang's
  // -fsanitize=function would call that a mismatch); each parameter is the
  // thread's own copy.
  template <std::size_t... I>
#if defined(__clang__)
  __attribute__((no_sanitize("function")))
#endif
  static void call_with_arguments(const kernel_call& call, std::index_sequence<I...>) {
    const auto function = reinterpret_cast<void (*)(abi_parameter<Params>...)>(call.function);
    function(thread_argument<Params>(std::get<I>(call.arguments))...);
  }
  // The kernel's loop, except in a program whose accesses go to hooks
  // (cusim-cc --check=banks, --warp-mode=lockstep: ThreadSanitizer's
  // instrumentation, cusim's hooks): there every access the loop makes would
  // be taken for the CUDA thread's, and be a spin point under lockstep, so
  // the scheduler's own, uninstrumented loop starts each thread instead.
  static constexpr auto thread_loop_of() {
#ifdef __CUSIM_ACCESS_HOOKS__
    return static_cast<bool (*)(const void*, thread_loop&)>(nullptr);
#else
    return &run_threads;
#endif
  }
  static std::size_t pointer_arguments(const void* self, const void** out, std::size_t capacity) {
    const kernel_call* call = of(self);
    std::size_t i = 0;
    std::apply([&](const auto&... value) { ((i < capacity ? (out[i++] = pointer_or_null(value)) : nullptr), ...); },
               call->arguments);
    return sizeof...(Params);
  }
  static kernel_invocation invocation(call_reference call, const char* name) {
    const void* function = reinterpret_cast<const void*>(of(call.get())->function);
    return {&run_thread, static_cast<call_reference&&>(call), function, name, &pointer_arguments, thread_loop_of()};
  }
};

// A launch whose kernel the launch names (`k<<<...>>>` through cusim-cc,
// for a function it knows is a kernel): the thread loop calls it through
// `Direct`, a lambda that calls it by name, so the compiler sees the
// kernel's code inside the loop over threads and may inline it (the index
// then lives in registers between threads). The call is the same: the
// arguments are the stored ones, copied into the parameters. A kernel with a
// parameter passed by address keeps the call through the pointer (a call by
// name would run the parameter's copy constructor, which CUDA does not).
template <class Direct, class... Params>
struct direct_kernel_call : kernel_call<Params...> {
  using base = kernel_call<Params...>;
  using arguments_type = typename base::arguments_type;
  // Arguments up to this size are copied to the loop's frame first: the
  // kernel's stores cannot reach a local whose address no one has, so the
  // compiler keeps them in registers across threads, where from the shared
  // call it would load them again after each store (W1: 4 loads a thread).
  static constexpr std::size_t local_arguments_limit = 256;
  static bool run_threads(const void* self, thread_loop& loop) {
    const arguments_type& shared = base::of(self)->arguments;
    if constexpr (sizeof(arguments_type) <= local_arguments_limit) {
      const arguments_type local = shared;
      return loop.run([&] { call_by_name<Direct, Params...>(local, std::index_sequence_for<Params...>{}); });
    } else {
      return loop.run([&] { call_by_name<Direct, Params...>(shared, std::index_sequence_for<Params...>{}); });
    }
  }
  static kernel_invocation invocation(call_reference call, const char* name) {
    kernel_invocation invocation = base::invocation(static_cast<call_reference&&>(call), name);
    if (invocation.run_threads != nullptr) {  // null: hooks (see base)
      invocation.run_threads = &run_threads;
      invocation.called_by_name = true;
    }
    return invocation;
  }
};
// Where the kernel's own frame matters more than its speed, the loop calls
// it through the pointer, which keeps the kernel out of the loop's code: in
// an unoptimised build (cusim-cc defines __CUSIM_KERNEL_FRAMES__ without
// -O1..3; nothing would be inlined anyway) and under a sanitizer, whose
// reports name the frame that holds a local variable.
#if defined(__CUSIM_KERNEL_FRAMES__) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kernel_frames_kept = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
inline constexpr bool kernel_frames_kept = true;
#else
inline constexpr bool kernel_frames_kept = false;
#endif
#else
inline constexpr bool kernel_frames_kept = false;
#endif

// A launch by the kernel's name that leaves trailing parameters to their
// default arguments (`k<<<g, b>>>(p)` for `__global__ void k(int* p, int n = 32)`,
// as nvcc takes it): the default arguments live only in the kernel's
// declaration, which a pointer does not carry, so the given arguments are
// stored (converted to the first parameters' types) and every thread calls
// the kernel by name through `Direct`, where C++ supplies the rest. Unlike
// nvcc, which evaluates a default argument once at the launch, each thread
// evaluates it: the same for constants, the usual case.
template <class... Types>
struct type_list {};
template <class List>
struct host_arguments_of;
template <class... Params>
struct host_arguments_of<type_list<Params...>> {
  using type = host_arguments<Params...>;
};
// The first N of Types, for std::make_index_sequence<N>.
template <class Indices, class... Types>
struct first_types;
template <std::size_t... I, class... Types>
struct first_types<std::index_sequence<I...>, Types...> {
  using type = type_list<std::tuple_element_t<I, std::tuple<Types...>>...>;
};

template <class Direct, class Given, class... Params>
struct defaulted_kernel_call;
template <class Direct, class... Given, class... Params>
struct defaulted_kernel_call<Direct, type_list<Given...>, Params...> : shared_call {
  static_assert(!(passed_by_address<Params> || ...),
                "cusim: a launch that leaves parameters to their default arguments calls the kernel by name, which "
                "would construct and destroy, in every thread, a parameter CUDA copies as bytes: pass every argument");
  using arguments_type = std::tuple<stored_parameter<Given>...>;
  void (*function)(Params...);
  arguments_type arguments;

  static call_reference make(void (*function)(Params...), arguments_type arguments) {
    return call_reference(
        new defaulted_kernel_call{{1, &destroy_call}, function, static_cast<arguments_type&&>(arguments)});
  }
  static void destroy_call(const shared_call* self) { delete of(self); }
  static const defaulted_kernel_call* of(const void* self) {
    return static_cast<const defaulted_kernel_call*>(static_cast<const shared_call*>(self));
  }
  static void run_thread(const void* self) {
    call_by_name<Direct, Given...>(of(self)->arguments, std::index_sequence_for<Given...>{});
  }
  static bool run_threads(const void* self, thread_loop& loop) {
    const arguments_type& arguments = of(self)->arguments;
    return loop.run([&] { call_by_name<Direct, Given...>(arguments, std::index_sequence_for<Given...>{}); });
  }
  static std::size_t pointer_arguments(const void* self, const void** out, std::size_t capacity) {
    std::size_t i = 0;
    std::apply([&](const auto&... value) { ((i < capacity ? (out[i++] = pointer_or_null(value)) : nullptr), ...); },
               of(self)->arguments);
    return sizeof...(Given);
  }
  static kernel_invocation invocation(call_reference call, const char* name) {
    const void* function = reinterpret_cast<const void*>(of(call.get())->function);
    // As kernel_call::thread_loop_of, and where the kernel's frame is kept
    // (kernel_frames_kept, above) the scheduler starts each thread.
#ifdef __CUSIM_ACCESS_HOOKS__
    constexpr bool (*loop)(const void*, thread_loop&) = nullptr;
#else
    constexpr bool (*loop)(const void*, thread_loop&) = kernel_frames_kept ? nullptr : &run_threads;
#endif
    kernel_invocation invocation{&run_thread, static_cast<call_reference&&>(call), function, name,
                                 &pointer_arguments, loop};
    invocation.called_by_name = loop != nullptr;
    return invocation;
  }
};

template <class Direct, class... Params>
using call_for = std::conditional_t<kernel_frames_kept || (passed_by_address<Params> || ...), kernel_call<Params...>,
                                    direct_kernel_call<Direct, Params...>>;

struct launch_shape {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes;
  cudaStream_t stream;
  bool cooperative = false;  // cudaLaunchCooperativeKernel: every block resident at once, grid.sync() allowed
  dim3 cluster{0, 0, 0};     // cudaLaunchAttributeClusterDimension; 0: none given at launch
  const char* file = nullptr;  // where the launch is in the source, when known (<<<>>> through cusim-cc)
  unsigned int line = 0;
};

// Validates the launch against the active profile and runs it. Errors are
// recorded as the calling host thread's last error, as CUDA does.
CUSIM_FACT(launches) cudaError_t launch_kernel(const launch_shape& shape, kernel_invocation invocation);

// Launches `kernel` with its arguments given as CUDA's void** array (each
// entry points to one argument), as cudaLaunchKernel and
// cudaLaunchCooperativeKernel take them.
template <class... Params>
cudaError_t launch_from_argument_array(void (*kernel)(Params...), const launch_shape& shape, void** args,
                                       const char* name) {
  using call_type = kernel_call<Params...>;
  auto copy = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return typename call_type::arguments_type(store_parameter<Params>(*static_cast<std::decay_t<Params>*>(args[I]))...);
  };
  return launch_kernel(shape, call_type::invocation(call_type::make(kernel, copy(std::index_sequence_for<Params...>{})), name));
}

// Kernels by address, for launches that pass a kernel as `const void*`
// (cudaLaunchKernel((void*)k, ...)): cusim-cc registers every non-template
// kernel it compiles, and every typed launch registers its kernel.
using argument_array_launcher = cudaError_t (*)(const void* kernel, const launch_shape& shape, void** args,
                                                const char* name);
// Where each parameter lies in a packed parameter buffer (cudaGetParameterBuffer
// + cudaLaunchDevice: each in turn at the next offset aligned for its type):
// writes their addresses to `args` and returns the parameter count.
using parameter_layout = std::size_t (*)(void* buffer, void** args, std::size_t capacity);
template <class... Params>
std::size_t packed_parameters(void* buffer, void** args, std::size_t capacity) {
  std::size_t offset = 0, i = 0;
  auto place = [&](std::size_t size, std::size_t alignment) {
    offset = (offset + alignment - 1) / alignment * alignment;
    if (i < capacity) args[i] = static_cast<char*>(buffer) + offset;
    ++i;
    offset += size;
  };
  (place(sizeof(std::decay_t<Params>), alignof(std::decay_t<Params>)), ...);
  return sizeof...(Params);
}

// __launch_bounds__(max_threads, min_blocks, max_blocks_per_cluster); 0s: none.
struct launch_bounds {
  unsigned int max_threads = 0;
  unsigned int min_blocks = 0;
  unsigned int max_blocks_per_cluster = 0;
};

// `cluster`: the kernel's __cluster_dims__, or 0s.
void register_kernel(const void* kernel, argument_array_launcher launcher, const char* name, dim3 cluster,
                     parameter_layout layout = nullptr, launch_bounds bounds = {});
// The __launch_bounds__ of a registered kernel; 0s for none.
launch_bounds compiled_launch_bounds(const void* kernel);
// The parameter layout of a registered kernel, or nullptr.
parameter_layout registered_layout(const void* kernel);
argument_array_launcher registered_launcher(const void* kernel, const char** name);
// The __cluster_dims__ of a registered kernel; 0s for none.
dim3 compiled_cluster_dims(const void* kernel);
// The name cusim-cc registered the kernel under, or nullptr.
const char* registered_name(const void* kernel);

template <class F>
struct kernel_registration;
template <class... Params>
struct kernel_registration<void(Params...)> {
  static cudaError_t launch(const void* kernel, const launch_shape& shape, void** args, const char* name) {
    return launch_from_argument_array(reinterpret_cast<void (*)(Params...)>(const_cast<void*>(kernel)), shape, args,
                                      name);
  }
  kernel_registration(void (*kernel)(Params...), const char* name, dim3 cluster = dim3(0, 0, 0),
                      launch_bounds bounds = {}) {
    register_kernel(reinterpret_cast<const void*>(kernel), &launch, name, cluster, &packed_parameters<Params...>,
                    bounds);
  }
};

#if __cplusplus >= 202002L
// A kernel template's name, as a template argument.
template <std::size_t N>
struct kernel_name_literal {
  char text[N];
  constexpr kernel_name_literal(const char (&name)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = name[i];
  }
};
// Each instance of a kernel template is registered by address as the
// program starts: cusim-cc names `registration` in the template's body, so
// every instance the program makes (one whose address it takes, for
// cudaLaunchCooperativeKernel((void*)k<int>, ...), as well as one it
// launches) has its own, with the template's __cluster_dims__ and
// __launch_bounds__ as that instance computes them.
template <auto Kernel, kernel_name_literal Name, dim3 Cluster = dim3(0, 0, 0), launch_bounds Bounds = launch_bounds{}>
struct registered_template_kernel {
  static inline const kernel_registration<std::remove_pointer_t<decltype(Kernel)>> registration{Kernel, Name.text,
                                                                                                Cluster, Bounds};
};
#endif

// Where cusim-cc saw a non-template kernel declared ("file:line:name"): how
// the front end's facts reach a kernel with internal linkage, which has no
// symbol to name it by (include/cusim/detail/front_end_facts.hpp).
void note_kernel_site(const void* kernel, const char* site);
template <class F>
struct kernel_site;
template <class... Params>
struct kernel_site<void(Params...)> {
  kernel_site(void (*kernel)(Params...), const char* site) { note_kernel_site(reinterpret_cast<const void*>(kernel), site); }
};

}  // namespace cusim::detail
