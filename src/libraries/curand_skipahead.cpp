// The jump tables behind cuRAND's skipahead functions and curand_init's
// subsequence and offset (see include/cusim/detail/curand_skipahead.hpp).
// NVIDIA ships them precomputed; here they are derived from the generators'
// one-step recurrences on first use, which takes a few milliseconds once.
#include <cusim/detail/curand_skipahead.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace cusim::detail {
namespace {

// ---- XORWOW: a linear map over GF(2) on 160 bits ----

using xorshift_words = std::array<std::uint32_t, 5>;
constexpr int xorshift_bits = 160;
constexpr int xorshift_nibbles = xorshift_bits / 4;

xorshift_words xorshift_step(xorshift_words v) {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
  return v;
}

xorshift_words unit_vector(int bit) {
  xorshift_words v{};
  v[bit / 32] = std::uint32_t{1} << (bit % 32);
  return v;
}

void xor_into(xorshift_words& into, const xorshift_words& v) {
  for (int w = 0; w < 5; ++w) into[w] ^= v[w];
}

// A linear map kept as the image of every pattern of every nibble of the
// input, so that applying it costs 40 lookups instead of 160 conditional
// row additions.
class xorshift_map {
 public:
  // Filled in place: a map is 12.8 KB, too big to pass around on a fiber's
  // stack (the first curand_init runs in a kernel).
  template <class ImageOfBit>
  void fill(ImageOfBit image_of_bit) {
    for (int nibble = 0; nibble < xorshift_nibbles; ++nibble) {
      auto& row = images_[nibble];
      row[0] = {};
      for (unsigned pattern = 1; pattern < 16; ++pattern) {
        const int low = __builtin_ctz(pattern);
        row[pattern] = row[pattern & (pattern - 1)];
        xor_into(row[pattern], image_of_bit(nibble * 4 + low));
      }
    }
  }

  xorshift_words apply(const xorshift_words& v) const {
    xorshift_words out{};
    for (int nibble = 0; nibble < xorshift_nibbles; ++nibble) {
      const unsigned pattern = (v[nibble / 8] >> (4 * (nibble % 8))) & 15u;
      xor_into(out, images_[nibble][pattern]);
    }
    return out;
  }

  void fill_with_square_of(const xorshift_map& m) {
    fill([&m](int bit) { return m.apply(m.apply(unit_vector(bit))); });
  }

 private:
  std::array<std::array<xorshift_words, 16>, xorshift_nibbles> images_;
};

// The maps for 2^(first_power + k) steps, k = 0..63, built on the heap.
std::vector<xorshift_map> xorshift_powers(int first_power) {
  std::vector<xorshift_map> powers(64);
  auto scratch = std::make_unique<std::array<xorshift_map, 2>>();
  (*scratch)[0].fill([](int bit) { return xorshift_step(unit_vector(bit)); });
  int current = 0;
  for (int i = 0; i < first_power; ++i, current ^= 1) (*scratch)[current ^ 1].fill_with_square_of((*scratch)[current]);
  powers[0] = (*scratch)[current];
  for (int k = 1; k < 64; ++k) powers[k].fill_with_square_of(powers[k - 1]);
  return powers;
}

const std::vector<xorshift_map>& xorshift_jumps(curand_stride stride) {
  // Built on first use; the C++ runtime makes the initialisation thread-safe.
  static const std::vector<xorshift_map> elements = xorshift_powers(0);
  static const std::vector<xorshift_map> subsequences = xorshift_powers(67);
  return stride == curand_stride::element ? elements : subsequences;
}

// ---- MRG32k3a: two 3x3 linear maps modulo primes below 2^32 ----

constexpr std::uint64_t mrg_modulus1 = 4294967087u;
constexpr std::uint64_t mrg_modulus2 = 4294944443u;

using mrg_matrix = std::array<std::array<std::uint64_t, 3>, 3>;
using mrg_vector = std::array<std::uint64_t, 3>;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % m);
}

mrg_matrix multiply(const mrg_matrix& a, const mrg_matrix& b, std::uint64_t m) {
  mrg_matrix c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] = (c[i][j] + mul_mod(a[i][k], b[k][j], m)) % m;
  return c;
}

mrg_vector multiply(const mrg_matrix& a, const mrg_vector& v, std::uint64_t m) {
  mrg_vector out{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) out[i] = (out[i] + mul_mod(a[i][k], v[k], m)) % m;
  return out;
}

struct mrg_powers {
  std::array<mrg_matrix, 64> first, second;  // 2^(first_power + k) steps of each component
};

mrg_powers mrg_jumps_from(int first_power) {
  // One step: s' = (s[1], s[2], a12*s[1] - a13n*s[0]) and
  // s' = (s[1], s[2], a21*s[2] - a23n*s[0]), the negations taken mod m.
  mrg_matrix a1{{{0, 1, 0}, {0, 0, 1}, {mrg_modulus1 - 810728u, 1403580u, 0}}};
  mrg_matrix a2{{{0, 1, 0}, {0, 0, 1}, {mrg_modulus2 - 1370589u, 0, 527612u}}};
  for (int i = 0; i < first_power; ++i) {
    a1 = multiply(a1, a1, mrg_modulus1);
    a2 = multiply(a2, a2, mrg_modulus2);
  }
  mrg_powers powers;
  for (int k = 0; k < 64; ++k) {
    powers.first[k] = a1;
    powers.second[k] = a2;
    a1 = multiply(a1, a1, mrg_modulus1);
    a2 = multiply(a2, a2, mrg_modulus2);
  }
  return powers;
}

const mrg_powers& mrg_jumps(curand_stride stride) {
  static const mrg_powers elements = mrg_jumps_from(0);
  static const mrg_powers subsequences = mrg_jumps_from(76);
  static const mrg_powers sequences = mrg_jumps_from(127);
  switch (stride) {
    case curand_stride::element: return elements;
    case curand_stride::subsequence: return subsequences;
    case curand_stride::sequence: break;
  }
  return sequences;
}

mrg_vector widen(const unsigned int (&s)[3]) { return {s[0], s[1], s[2]}; }

void narrow(const mrg_vector& v, unsigned int (&s)[3]) {
  for (int i = 0; i < 3; ++i) s[i] = static_cast<unsigned int>(v[i]);
}

}  // namespace

void xorwow_skipahead(unsigned int (&v)[5], unsigned long long n, curand_stride stride) {
  if (n == 0) return;
  const auto& powers = xorshift_jumps(stride);
  xorshift_words words{v[0], v[1], v[2], v[3], v[4]};
  for (int k = 0; n != 0; ++k, n >>= 1)
    if (n & 1) words = powers[k].apply(words);
  for (int w = 0; w < 5; ++w) v[w] = words[w];
}

void mrg32k3a_skipahead(unsigned int (&s1)[3], unsigned int (&s2)[3], unsigned long long n, curand_stride stride) {
  if (n == 0) return;
  const auto& powers = mrg_jumps(stride);
  mrg_vector first = widen(s1), second = widen(s2);
  for (int k = 0; n != 0; ++k, n >>= 1) {
    if (!(n & 1)) continue;
    first = multiply(powers.first[k], first, mrg_modulus1);
    second = multiply(powers.second[k], second, mrg_modulus2);
  }
  narrow(first, s1);
  narrow(second, s2);
}

}  // namespace cusim::detail
