// cusim's C++ launch API, for code that does not go through cusim-cc:
//
//   cusim::launch(vector_add, blocks, threads)(d_a, d_b, d_c, n);
//
// is `vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);`. Arguments are
// converted to the kernel's parameter types and copied, as CUDA does. A bad
// configuration is reported through cudaGetLastError(), as with <<<>>>.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cusim/detail/kernel_call.hpp>

namespace cusim {

namespace detail {
template <class Direct, class... Params>
class direct_kernel_launcher;
}

template <class... Params>
class kernel_launcher {
 public:
  kernel_launcher(void (*kernel)(Params...), detail::launch_shape shape, const char* name)
      : kernel_(kernel), shape_(shape), name_(name) {}

  template <class... Args>
  cudaError_t operator()(Args&&... args) const {
    return launch_as<detail::kernel_call<Params...>>(std::forward<Args>(args)...);
  }

  // The same launch, whose threads call the kernel through `Direct`, a
  // lambda that calls it by name (detail::direct_kernel_call): what
  // cusim-cc writes for a launch of a function it knows is a kernel.
  template <class Direct>
  detail::direct_kernel_launcher<Direct, Params...> calling_by_name(Direct) const {
    return detail::direct_kernel_launcher<Direct, Params...>(*this);
  }

 protected:
  // Launches with `Call`'s invocation (a kernel_call or a direct_kernel_call).
  template <class Call, class... Args>
  cudaError_t launch_as(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "a kernel launch must pass one argument per parameter (default arguments apply only to a "
                  "<<<...>>> launch that cusim-cc can call by name: of a kernel at namespace scope, named where no "
                  "variable or member of the same name may hide it)");
    using call_type = detail::kernel_call<Params...>;
    const detail::host_arguments<Params...> host(std::forward<Args>(args)...);  // until the launch is queued
    auto call = call_type::make(kernel_, host.stored());
    return detail::launch_kernel(shape_, Call::invocation(std::move(call), name_));
  }

  // The given arguments, converted on the host to the first parameters'
  // types; the threads call the kernel by name, which supplies the rest
  // (detail::defaulted_kernel_call).
  template <class Direct, class... Args>
  cudaError_t launch_leaving_defaults(Args&&... args) const {
    using given = typename detail::first_types<std::make_index_sequence<sizeof...(Args)>, Params...>::type;
    using call_type = detail::defaulted_kernel_call<Direct, given, Params...>;
    const typename detail::host_arguments_of<given>::type host(std::forward<Args>(args)...);
    auto call = call_type::make(kernel_, host.stored());
    return detail::launch_kernel(shape_, call_type::invocation(std::move(call), name_));
  }

 private:
  void (*kernel_)(Params...);
  detail::launch_shape shape_;
  const char* name_;
};

template <class... Params>
kernel_launcher<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                  cudaStream_t stream = nullptr, const char* name = nullptr) {
  return kernel_launcher<Params...>(kernel, {grid, block, shared_bytes, stream}, name);
}

namespace detail {
template <class Direct, class... Params>
class direct_kernel_launcher : kernel_launcher<Params...> {
 public:
  explicit direct_kernel_launcher(const kernel_launcher<Params...>& launcher) : kernel_launcher<Params...>(launcher) {}
  template <class... Args>
  cudaError_t operator()(Args&&... args) const {
    if constexpr (sizeof...(Args) < sizeof...(Params)) {
      return this->template launch_leaving_defaults<Direct>(std::forward<Args>(args)...);
    } else {
      return this->template launch_as<call_for<Direct, Params...>>(std::forward<Args>(args)...);
    }
  }
};

// The form cusim-cc rewrites `kernel<<<grid, block, shared, stream>>>` into.
// The default arguments `file` and `line` are evaluated at the launch, under the .cu
// file's line markers: reports about a launch name its source line.
template <class... Params>
kernel_launcher<Params...> launch_named(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr,
                                        const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  launch_shape shape{grid, block, shared_bytes, stream};
  shape.file = file;
  shape.line = line;
  return kernel_launcher<Params...>(kernel, shape, name);
}

// The argument types of a launch, handed to a kernel resolver.
template <class... A>
struct kernel_signature {};
// An argument's type as a reference parameter would take it: a non-const
// class lvalue stays a reference (`__global__ void k(T& e)` called with
// `*managed`), anything else is its decayed type.
template <class Arg>
using by_reference = std::conditional_t<std::is_lvalue_reference_v<Arg> && std::is_class_v<std::remove_reference_t<Arg>> &&
                                            !std::is_const_v<std::remove_reference_t<Arg>>,
                                        Arg, std::decay_t<Arg>>;

// What cusim-cc makes of NULL in a launch's arguments: g++'s NULL is a
// `long` once forwarded, which a pointer parameter does not take; this
// converts to any pointer (null) and any number (zero), as NULL passed to
// the parameter itself does. Where the kernel's template arguments are
// deduced, it counts as the `long` NULL is.
struct null_argument {
  using deduced_as = long;
  template <class T>
  constexpr operator T*() const {
    return nullptr;
  }
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr operator T() const {
    return T(0);
  }
};
// A launch's argument written as just `0`: converts as NULL does, and is
// deduced as the `int` it is.
struct zero_argument : null_argument {
  using deduced_as = int;
};
// An argument's type as the resolver deduces from it: NULL's and `0`'s
// stand-ins as what they stand for.
template <class Arg, class = void>
struct deduced_type {
  using type = Arg;
};
template <class Arg>
struct deduced_type<Arg, std::enable_if_t<std::is_base_of_v<null_argument, std::decay_t<Arg>>>> {
  using type = typename std::decay_t<Arg>::deduced_as;
};

// `f` when it names one function (not an overload set, not a template left
// to deduction); otherwise no match. cusim-cc's resolvers ask, in a
// requires-expression, whether a callee such as `k<4>` names one kernel:
// the `Dependent` arguments (the launch's argument types) make the
// question one the resolver's instantiation answers, not a hard error.
template <class... Dependent, class F>
constexpr F* unique_function(F* f) {
  return f;
}

// The form cusim-cc rewrites a launch of a kernel template or of an
// overloaded kernel into (`k<<<g, b>>>(p)` for `template <class T>
// __global__ void k(T*)`, `k<4><<<g, b>>>(p)` for `template <int N, class
// T> __global__ void k(T*)`). `Resolve` maps the argument types (decayed,
// and as by_reference keeps them) to the kernel to run: the specialization
// or overload whose parameters are exactly the decayed types, or else the
// by_reference ones (`T& e`), else the one kernel the callee names (its
// arguments converted, as a launch of it by name converts them), else a
// function that calls the callee with them, letting C++ deduce and pick.
// The first three are the kernel itself (so cudaFuncSetAttribute on it
// applies). `Direct`: where cusim-cc knows the callee is a kernel, a lambda
// that calls it by name (kernel_launcher::calling_by_name), where C++
// deduces and picks again what the resolver did.
template <class Resolve, class Direct = void>
class deduced_kernel_launcher {
 public:
  deduced_kernel_launcher(const char* name, launch_shape shape) : name_(name), shape_(shape) {}

  template <class... Args>
  cudaError_t operator()(Args&&... args) const {
    const auto kernel = Resolve{}(kernel_signature<typename deduced_type<std::decay_t<Args>>::type...>{},
                                  kernel_signature<typename deduced_type<by_reference<Args>>::type...>{});
    if constexpr (std::is_void_v<Direct>) {
      return kernel_launcher(kernel, shape_, name_)(std::forward<Args>(args)...);
    } else {
      return kernel_launcher(kernel, shape_, name_).calling_by_name(Direct{})(std::forward<Args>(args)...);
    }
  }

  template <class ByName>
  deduced_kernel_launcher<Resolve, ByName> calling_by_name(ByName) const {
    return deduced_kernel_launcher<Resolve, ByName>(name_, shape_);
  }

 private:
  const char* name_;
  launch_shape shape_;
};

template <class Resolve>
deduced_kernel_launcher<Resolve> launch_deduced(const char* name, Resolve, dim3 grid, dim3 block,
                                                std::size_t shared_bytes = 0, cudaStream_t stream = nullptr,
                                                const char* file = __builtin_FILE(),
                                                unsigned int line = __builtin_LINE()) {
  launch_shape shape{grid, block, shared_bytes, stream};
  shape.file = file;
  shape.line = line;
  return deduced_kernel_launcher<Resolve>(name, shape);
}
}  // namespace detail

}  // namespace cusim
