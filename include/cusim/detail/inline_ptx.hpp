// Inline PTX in device code. cusim-cc turns each
//   asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane) : ...);
// in a __device__ or __global__ function into
//   { static ::cusim::detail::ptx::statement s{"mov.u32 %0, %%laneid;", file, line};
//     ::cusim::detail::ptx::operand_slot o[] = {::cusim::detail::ptx::output<'r'>(lane), ...};
//     ::cusim::detail::ptx::run(s, o, 1); }
// and the runtime runs the PTX text (src/ptx/, docs/inline-ptx.md). The
// operands travel as bits, sized by their constraint letter (r: 32 bits,
// l: 64, h: 16, c: 8, f: float, d: double, n: an immediate).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cusim/detail/config.hpp>

namespace cusim::detail::ptx {

struct operand_slot {
  void* address;        // an output's (or "+" operand's) lvalue; null for inputs
  std::uint64_t bits;   // an input's value
  char constraint;      // r l h c f d n
  bool is_output;
  void (*store)(void* address, std::uint64_t bits, char constraint);
};

// One asm statement. Constant-initialised; `parsed` is set the first time a
// thread runs it (atomically: threads on several workers may race to it).
struct statement {
  const char* text;
  const char* file;
  unsigned int line;
  const void* parsed = nullptr;
};

// Runs `s` for the calling CUDA thread (waits where its PTX waits).
CUSIM_FACT(waits) CUSIM_FACT(spins) void run(statement& s, operand_slot* operands, unsigned int count);

template <class T>
std::uint64_t bits_of_operand(const T& value, char constraint) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<U>) {
    return reinterpret_cast<std::uintptr_t>(value);
  } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U>) {
    if (constraint == 'f') {
      const float f = static_cast<float>(value);
      std::uint32_t b;
      std::memcpy(&b, &f, sizeof b);
      return b;
    }
    if (constraint == 'd') {
      const double d = static_cast<double>(value);
      std::uint64_t b;
      std::memcpy(&b, &d, sizeof b);
      return b;
    }
    if constexpr (std::is_floating_point_v<U>) {
      // An integer constraint on a floating-point value: its bits, as the
      // register holds them.
      std::uint64_t b = 0;
      std::memcpy(&b, &value, sizeof(U) < 8 ? sizeof(U) : 8);
      return b;
    } else {
      return static_cast<std::uint64_t>(static_cast<long long>(value));
    }
  } else {
    static_assert(std::is_trivially_copyable_v<U>, "an asm operand must be a number, a pointer or plain bits");
    std::uint64_t b = 0;
    std::memcpy(&b, &value, sizeof(U) < 8 ? sizeof(U) : 8);
    return b;
  }
}

template <class T>
void store_operand(void* address, std::uint64_t bits, char constraint) {
  T& target = *static_cast<T*>(address);
  if constexpr (std::is_pointer_v<T>) {
    target = reinterpret_cast<T>(static_cast<std::uintptr_t>(bits));
  } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    if (constraint == 'f') {
      float f;
      const std::uint32_t b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, sizeof f);
      target = static_cast<T>(f);
    } else if (constraint == 'd') {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      target = static_cast<T>(d);
    } else if constexpr (std::is_floating_point_v<T>) {
      std::memcpy(&target, &bits, sizeof(T) < 8 ? sizeof(T) : 8);
    } else {
      switch (constraint) {  // the register's width, then the variable's type
        case 'c': target = static_cast<T>(static_cast<std::uint8_t>(bits)); break;
        case 'h': target = static_cast<T>(static_cast<std::uint16_t>(bits)); break;
        case 'r': target = static_cast<T>(static_cast<std::uint32_t>(bits)); break;
        default: target = static_cast<T>(bits); break;
      }
    }
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "an asm operand must be a number, a pointer or plain bits");
    std::memcpy(&target, &bits, sizeof(T) < 8 ? sizeof(T) : 8);
  }
}

// nvcc's rule, kept so that what builds here builds for a GPU: an integer
// constraint (c h r l: 1, 2, 4, 8 bytes) takes an integer, enum or pointer
// of that size (or plain bits of it), f a float and d a double.
template <char constraint, class T>
constexpr bool operand_fits() {
  using U = std::remove_cv_t<T>;
  if constexpr (constraint == 'f') return std::is_same_v<U, float>;
  if constexpr (constraint == 'd') return std::is_same_v<U, double>;
  if constexpr (constraint == 'n') return std::is_integral_v<U> || std::is_enum_v<U>;
  constexpr std::size_t size = constraint == 'c' ? 1 : constraint == 'h' ? 2 : constraint == 'r' ? 4 : 8;
  return !std::is_floating_point_v<U> && sizeof(U) == size;
}

// "=r"(x): written by the PTX.
template <char constraint, class T>
operand_slot output(T& lvalue) {
  static_assert(operand_fits<constraint, T>(), "asm operand type size does not match type/size implied by its constraint");
  return {&lvalue, 0, constraint, true, &store_operand<T>};
}
// "+r"(x): read and written.
template <char constraint, class T>
operand_slot in_out(T& lvalue) {
  static_assert(operand_fits<constraint, T>(), "asm operand type size does not match type/size implied by its constraint");
  return {&lvalue, bits_of_operand(lvalue, constraint), constraint, true, &store_operand<T>};
}
// "r"(expression): read.
template <char constraint, class T>
operand_slot input(const T& value) {
  static_assert(operand_fits<constraint, T>(), "asm operand type size does not match type/size implied by its constraint");
  return {nullptr, bits_of_operand(value, constraint), constraint, false, nullptr};
}

}  // namespace cusim::detail::ptx
