// CUDA's warp-level intrinsics: __syncwarp, shuffles, votes, match, reduce
// and __activemask, each one call into the engine (warp_api.hpp). Overloads
// follow CUDA's, so argument conversions resolve as they do with nvcc. Every
// function takes the call site as hidden default arguments, so that a report
// names the user's line.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cusim/detail/warp_api.hpp>

#define CUSIM_CALL_SITE_ const char *cusim_file = __builtin_FILE(), unsigned int cusim_line = __builtin_LINE()

namespace cusim::detail {

// The bits of a value of up to 8 bytes, and back.
template <class T>
std::uint64_t to_lane_bits(const T& value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
T from_lane_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <class T>
T shuffle(warp_op op, unsigned int mask, const T& var, unsigned int operand, int width, const char* file,
          unsigned int line) {
  const warp_call call{op, mask, to_lane_bits(var), operand, static_cast<unsigned int>(width), file, line};
  return from_lane_bits<T>(warp_collective(call).value);
}

inline warp_result warp_simple(warp_op op, unsigned int mask, std::uint64_t value, const char* file,
                               unsigned int line) {
  return warp_collective(warp_call{op, mask, value, 0, 32, file, line});
}

}  // namespace cusim::detail

inline void __syncwarp(unsigned int mask = 0xffffffffu, CUSIM_CALL_SITE_) {
  cusim::detail::warp_simple(cusim::detail::warp_op::sync, mask, 0, cusim_file, cusim_line);
}

// The lanes of the warp that reach this call together: every live lane of the
// warp either called it at this site or waits elsewhere (exited lanes do not
// count). On a GPU, the lanes converged at the call.
inline unsigned int __activemask(CUSIM_CALL_SITE_) {
  return cusim::detail::warp_simple(cusim::detail::warp_op::active_mask, 0, 0, cusim_file, cusim_line).lanes;
}

// Shuffles of T (cuda_fp16.h adds __half and __half2 with it).
#define CUSIM_DEFINE_SHUFFLES(T)                                                                                       \
  inline T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32, CUSIM_CALL_SITE_) {                \
    return cusim::detail::shuffle(cusim::detail::warp_op::shfl_idx, mask, var, static_cast<unsigned int>(srcLane), \
                                  width, cusim_file, cusim_line);                                                \
  }                                                                                                              \
  inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32, CUSIM_CALL_SITE_) {      \
    return cusim::detail::shuffle(cusim::detail::warp_op::shfl_up, mask, var, delta, width, cusim_file,          \
                                  cusim_line);                                                                   \
  }                                                                                                              \
  inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32, CUSIM_CALL_SITE_) {    \
    return cusim::detail::shuffle(cusim::detail::warp_op::shfl_down, mask, var, delta, width, cusim_file,        \
                                  cusim_line);                                                                   \
  }                                                                                                              \
  inline T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32, CUSIM_CALL_SITE_) {           \
    return cusim::detail::shuffle(cusim::detail::warp_op::shfl_xor, mask, var, static_cast<unsigned int>(laneMask), \
                                  width, cusim_file, cusim_line);                                                \
  }

#define CUSIM_MATCHES_(T)                                                                                         \
  inline unsigned int __match_any_sync(unsigned int mask, T value, CUSIM_CALL_SITE_) {                           \
    return cusim::detail::warp_simple(cusim::detail::warp_op::match_any, mask, cusim::detail::to_lane_bits(value), \
                                      cusim_file, cusim_line)                                                    \
        .lanes;                                                                                                  \
  }                                                                                                              \
  inline unsigned int __match_all_sync(unsigned int mask, T value, int* pred, CUSIM_CALL_SITE_) {                \
    const auto r = cusim::detail::warp_simple(cusim::detail::warp_op::match_all, mask,                           \
                                              cusim::detail::to_lane_bits(value), cusim_file, cusim_line);       \
    *pred = r.predicate ? 1 : 0;                                                                                 \
    return r.lanes;                                                                                              \
  }

// The types CUDA's shuffles and matches take.
#define CUSIM_WARP_VALUE_TYPES_(X) \
  X(int)                           \
  X(unsigned int)                  \
  X(long)                          \
  X(unsigned long)                 \
  X(long long)                     \
  X(unsigned long long)            \
  X(float)                         \
  X(double)

CUSIM_WARP_VALUE_TYPES_(CUSIM_DEFINE_SHUFFLES)
CUSIM_WARP_VALUE_TYPES_(CUSIM_MATCHES_)

inline int __all_sync(unsigned int mask, int predicate, CUSIM_CALL_SITE_) {
  return static_cast<int>(cusim::detail::warp_simple(cusim::detail::warp_op::vote_all, mask, predicate != 0,
                                                     cusim_file, cusim_line)
                              .value);
}
inline int __any_sync(unsigned int mask, int predicate, CUSIM_CALL_SITE_) {
  return static_cast<int>(cusim::detail::warp_simple(cusim::detail::warp_op::vote_any, mask, predicate != 0,
                                                     cusim_file, cusim_line)
                              .value);
}
inline unsigned int __ballot_sync(unsigned int mask, int predicate, CUSIM_CALL_SITE_) {
  return cusim::detail::warp_simple(cusim::detail::warp_op::ballot, mask, predicate != 0, cusim_file, cusim_line)
      .lanes;
}

// sm_80 and later (checked against the modelled device when called).
#define CUSIM_REDUCE_(name, T, op)                                                                              \
  inline T name(unsigned int mask, T value, CUSIM_CALL_SITE_) {                                                 \
    return static_cast<T>(static_cast<std::uint32_t>(                                                          \
        cusim::detail::warp_simple(cusim::detail::warp_op::op, mask, static_cast<std::uint32_t>(value),         \
                                   cusim_file, cusim_line)                                                      \
            .value));                                                                                           \
  }
CUSIM_REDUCE_(__reduce_add_sync, unsigned int, reduce_add)
CUSIM_REDUCE_(__reduce_add_sync, int, reduce_add)
CUSIM_REDUCE_(__reduce_min_sync, unsigned int, reduce_min_unsigned)
CUSIM_REDUCE_(__reduce_min_sync, int, reduce_min_signed)
CUSIM_REDUCE_(__reduce_max_sync, unsigned int, reduce_max_unsigned)
CUSIM_REDUCE_(__reduce_max_sync, int, reduce_max_signed)
CUSIM_REDUCE_(__reduce_and_sync, unsigned int, reduce_and)
CUSIM_REDUCE_(__reduce_or_sync, unsigned int, reduce_or)
CUSIM_REDUCE_(__reduce_xor_sync, unsigned int, reduce_xor)

#undef CUSIM_MATCHES_
#undef CUSIM_REDUCE_
