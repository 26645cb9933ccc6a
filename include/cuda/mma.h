// Warp matrix multiply-accumulate (WMMA, nvcuda::wmma): the tensor-core API
// of sm_70 and later, for half, bfloat16, 8-bit integer, tf32 and double fragments.
//
// On a GPU a fragment's elements are spread over the warp's 32 lanes in an
// unspecified order; each lane sees its share as x[0..num_elements). Here
// lane L holds elements L*num_elements ... (L+1)*num_elements - 1 of the
// fragment's matrix in row-major order, and x has exactly those. An
// accumulator is only that share. A matrix_a or matrix_b fragment also keeps
// the whole tile, loaded or filled by every lane, so that mma_sync needs
// nothing from the other lanes: each lane computes its own share of D from
// the whole of A and B and its share of C. A lane's change to x[] of an
// accumulator is what a GPU would do; a change to x[] of a matrix_a or
// matrix_b fragment is not seen by the other lanes here, so mma_sync stops
// the grid with a message when it finds one, rather than compute with stale
// values.
//
// Every call is a warp-wide collective (__syncwarp at entry), as the _sync
// names say. Products of half, bfloat16 and 8-bit operands are exact and summed in
// float (int for integers) in k order; tf32 operands keep their top 19 bits,
// as tensor cores read them; double uses fused multiply-adds.
#pragma once
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__
#endif
#include <cmath>
#include <cstring>
#include <type_traits>

#include <cusim/detail/device_api.hpp>
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;

enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32;
}  // namespace precision
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
}  // namespace precision
}  // namespace experimental

// Rounds to tf32 (10 explicit mantissa bits), to nearest with ties away from
// zero (cvt.rna), as CUDA's __float_to_tf32; the result is still a float.
inline float __float_to_tf32(float in) {
  if (!std::isfinite(in)) return in;
  unsigned int bits;
  std::memcpy(&bits, &in, sizeof bits);
  bits += 0x1000u;  // half of the dropped 13 bits' unit: a tie rounds up in magnitude
  bits &= ~0x1fffu;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

namespace detail {

// What a fragment's T stands for: the type x[] holds, and the type loads read.
template <class T>
struct element {
  using type = T;
};
template <>
struct element<precision::tf32> {
  using type = float;
};

// The operand (matrix_a, matrix_b) and accumulator types CUDA defines, and
// the shapes of each.
template <class T>
inline constexpr bool is_operand_type = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> ||
                                        std::is_same_v<T, signed char> ||
                                        std::is_same_v<T, unsigned char> || std::is_same_v<T, precision::tf32> ||
                                        std::is_same_v<T, double>;
template <class T>
inline constexpr bool is_accumulator_type =
    std::is_same_v<T, float> || std::is_same_v<T, __half> || std::is_same_v<T, int> || std::is_same_v<T, double>;
template <int m, int n, int k>
inline constexpr bool is_16bit_shape = (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) ||
                                       (m == 8 && n == 32 && k == 16);
template <class Use, class T, int m, int n, int k>
inline constexpr bool supported_shape =
    (std::is_same_v<Use, accumulator> ? is_accumulator_type<T> : is_operand_type<T>)&&(
        std::is_same_v<T, double>            ? m == 8 && n == 8 && k == 4
        : std::is_same_v<T, precision::tf32> ? m == 16 && n == 16 && k == 8
        : std::is_same_v<T, float>           ? is_16bit_shape<m, n, k> || (m == 16 && n == 16 && k == 8)
                                             : is_16bit_shape<m, n, k>);

// The accumulators each operand type multiplies into.
template <class Operand, class Accumulator>
inline constexpr bool accumulates_into =
    std::is_same_v<Operand, __half> ? std::is_same_v<Accumulator, float> || std::is_same_v<Accumulator, __half>
    : std::is_same_v<Operand, __nv_bfloat16> || std::is_same_v<Operand, precision::tf32> ? std::is_same_v<Accumulator, float>
    : std::is_same_v<Operand, double>          ? std::is_same_v<Accumulator, double>
                                               : std::is_same_v<Accumulator, int>;

template <class Use, int m, int n, int k>
struct dimensions;
template <int m, int n, int k>
struct dimensions<matrix_a, m, n, k> {
  static constexpr int rows = m, cols = k;
};
template <int m, int n, int k>
struct dimensions<matrix_b, m, n, k> {
  static constexpr int rows = k, cols = n;
};
template <int m, int n, int k>
struct dimensions<accumulator, m, n, k> {
  static constexpr int rows = m, cols = n;
};

inline unsigned int lane() { return ::cusim::detail::this_thread_context().linear_tid % 32u; }

// The value a tensor core multiplies: tf32 keeps the top 19 bits.
template <class T>
inline auto operand(typename element<T>::type v) {
  if constexpr (std::is_same_v<T, precision::tf32>) {
    unsigned int bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= ~0x1fffu;
    float out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
  } else if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<float>(v);
  } else if constexpr (std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>) {
    return static_cast<int>(v);
  } else {
    return v;
  }
}

// A lane changed x[] of a matrix_a or matrix_b fragment: see the top of this file.
[[noreturn]] inline void report_changed_operand(const char* file, unsigned int line) {
  ::cusim::detail::trap(
      "mma_sync: this lane changed x[] of its matrix_a or matrix_b fragment after loading or filling it. cusim "
      "keeps those fragments whole in every lane and cannot see one lane's change (docs/libraries.md); change the "
      "matrix in memory before load_matrix_sync instead",
      file, line);
}

}  // namespace detail

template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
  static_assert(!std::is_same_v<T, experimental::precision::u4> && !std::is_same_v<T, experimental::precision::s4> &&
                    !std::is_same_v<T, experimental::precision::b1>,
                "cusim: WMMA's sub-byte fragments (u4, s4, b1) are not supported");
  static_assert(detail::supported_shape<Use, T, m, n, k>,
                "cusim: CUDA defines no WMMA fragment of this use, type and shape (matrix_a/matrix_b of half, bfloat16, "
                "signed or unsigned char in m16n16k16, m32n8k16, m8n32k16, of precision::tf32 in m16n16k8, of double "
                "in m8n8k4; accumulators of float, half, int or double in the same shapes)");
  using dims = detail::dimensions<Use, m, n, k>;

 public:
  using element_type = typename detail::element<T>::type;
  using storage_element_type = element_type;
  static constexpr int rows = dims::rows, cols = dims::cols;
  static constexpr int tile_elements = rows * cols;
  enum { num_elements = tile_elements / 32 };
  storage_element_type x[num_elements];

  // The whole tile (matrix_a and matrix_b only; see the top of this file).
  static constexpr bool keeps_tile = !std::is_same_v<Use, accumulator>;
  storage_element_type tile[keeps_tile ? tile_elements : 1];

  // Element e of the tile in row-major order.
  storage_element_type& at(int e) { return keeps_tile ? tile[e] : x[e - static_cast<int>(detail::lane()) * num_elements]; }
  void share_from_tile() {
    if constexpr (keeps_tile) {
      const int first = static_cast<int>(detail::lane()) * num_elements;
      for (int i = 0; i < num_elements; ++i) x[i] = tile[first + i];
    }
  }
  bool share_matches_tile() const {
    if constexpr (keeps_tile) {
      const int first = static_cast<int>(detail::lane()) * num_elements;
      return std::memcmp(x, tile + first, sizeof x) == 0;
    }
    return true;
  }
};

namespace detail {

// Reads (load) or writes (store) element (r, c) at r*ldm + c (row-major) or c*ldm + r.
template <class Frag, class Visit>
inline void for_each_element(Frag& f, bool row_major_memory, unsigned ldm, Visit visit) {
  const bool whole = Frag::keeps_tile;
  const int first = whole ? 0 : static_cast<int>(lane()) * Frag::num_elements;
  const int last = whole ? Frag::tile_elements : first + Frag::num_elements;
  for (int e = first; e < last; ++e) {
    const int r = e / Frag::cols, c = e % Frag::cols;
    visit(f.at(e), row_major_memory ? static_cast<size_t>(r) * ldm + c : static_cast<size_t>(c) * ldm + r);
  }
}

template <class Layout>
inline constexpr bool is_row_major = std::is_same_v<Layout, row_major>;

}  // namespace detail

template <class Use, int m, int n, int k, class T, class Layout, class V>
inline void fill_fragment(fragment<Use, m, n, k, T, Layout>& f, const V& v) {
  __syncwarp();
  using E = typename fragment<Use, m, n, k, T, Layout>::element_type;
  if constexpr (fragment<Use, m, n, k, T, Layout>::keeps_tile) {
    for (auto& e : f.tile) e = static_cast<E>(v);
  }
  for (auto& e : f.x) e = static_cast<E>(v);
}

// matrix_a and matrix_b: the memory layout is the fragment's.
template <class Use, int m, int n, int k, class T, class Layout>
inline void load_matrix_sync(fragment<Use, m, n, k, T, Layout>& f,
                             const typename fragment<Use, m, n, k, T, Layout>::element_type* p, unsigned ldm) {
  static_assert(!std::is_same_v<Use, accumulator>, "an accumulator's load_matrix_sync takes a layout_t");
  __syncwarp();
  detail::for_each_element(f, detail::is_row_major<Layout>, ldm, [&](auto& e, size_t at) { e = p[at]; });
  f.share_from_tile();
}

template <int m, int n, int k, class T>
inline void load_matrix_sync(fragment<accumulator, m, n, k, T>& f, const T* p, unsigned ldm, layout_t layout) {
  __syncwarp();
  detail::for_each_element(f, layout == mem_row_major, ldm, [&](auto& e, size_t at) { e = p[at]; });
}

template <int m, int n, int k, class T>
inline void store_matrix_sync(T* p, const fragment<accumulator, m, n, k, T>& f, unsigned ldm, layout_t layout) {
  __syncwarp();
  auto& self = const_cast<fragment<accumulator, m, n, k, T>&>(f);
  detail::for_each_element(self, layout == mem_row_major, ldm, [&](auto& e, size_t at) { p[at] = e; });
}

// D = A * B + C, each lane its share of D.
template <int m, int n, int k, class TA, class LA, class LB, class TC, class TD>
inline void mma_sync(fragment<accumulator, m, n, k, TD>& d, const fragment<matrix_a, m, n, k, TA, LA>& a,
                     const fragment<matrix_b, m, n, k, TA, LB>& b, const fragment<accumulator, m, n, k, TC>& c,
                     bool satf = false, const char* file = __builtin_FILE(), unsigned int line = __builtin_LINE()) {
  static_assert(detail::accumulates_into<TA, TC> && detail::accumulates_into<TA, TD>,
                "cusim: mma_sync's accumulators must be float or half for half operands, float for bfloat16 and tf32, int for "
                "8-bit integers and double for double, as in CUDA");
  __syncwarp(0xffffffffu, file, line);
  if (!a.share_matches_tile() || !b.share_matches_tile()) detail::report_changed_operand(file, line);
  constexpr int per_lane = fragment<accumulator, m, n, k, TD>::num_elements;
  const int first = static_cast<int>(detail::lane()) * per_lane;
  TD result[per_lane];
  for (int i = 0; i < per_lane; ++i) {
    const int row = (first + i) / n, col = (first + i) % n;
    if constexpr (std::is_same_v<TA, double>) {
      double sum = c.x[i];
      for (int kk = 0; kk < k; ++kk) sum = std::fma(a.tile[row * k + kk], b.tile[kk * n + col], sum);
      result[i] = sum;
    } else if constexpr (std::is_same_v<TD, int>) {
      long long sum = c.x[i];
      for (int kk = 0; kk < k; ++kk) {
        sum += static_cast<long long>(detail::operand<TA>(a.tile[row * k + kk])) *
               detail::operand<TA>(b.tile[kk * n + col]);
      }
      if (satf) sum = sum > 2147483647LL ? 2147483647LL : sum < -2147483648LL ? -2147483648LL : sum;
      result[i] = static_cast<int>(static_cast<unsigned int>(sum));  // wraps without satf, as the hardware
    } else {
      float sum = static_cast<float>(c.x[i]);
      for (int kk = 0; kk < k; ++kk) {
        sum += detail::operand<TA>(a.tile[row * k + kk]) * detail::operand<TA>(b.tile[kk * n + col]);
      }
      if (satf) sum = std::isnan(sum) ? 0.0f : std::fmax(std::fmin(sum, 3.4028235e38f), -3.4028235e38f);
      result[i] = static_cast<TD>(sum);
    }
  }
  // d may be c: the results are written once all are computed.
  for (int i = 0; i < per_lane; ++i) d.x[i] = result[i];
}

}  // namespace wmma
}  // namespace nvcuda
