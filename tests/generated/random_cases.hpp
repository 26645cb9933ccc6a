// Host-side generator for the generated differential suite (tests/generated):
// a seeded random source and the value classes the cases draw from. The
// same seed gives the same cases with nvcc on a GPU and with cusim-cc, so a
// golden recorded on the H100 fits cusim's run of the same seed
// (docs/differential-testing.md, "The generated suite").
//
// Values come from edge classes rather than uniformly: zeros of both signs,
// denormals, infinities, NaNs with payloads, the extremes of each format,
// halfway cases for rounding, the boundaries of integer conversions, and
// ordinary values. A uniform draw over bit patterns would almost never hit
// the cases where implementations differ.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace generated {

// splitmix64: small, fast, and the same on every compiler (unlike
// std::uniform_int_distribution, whose results the standard leaves open).
class random_source {
 public:
  explicit random_source(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t next32() { return static_cast<std::uint32_t>(next() >> 32); }
  // Uniform in [0, n), n > 0 (the modulo bias of a 64-bit draw is negligible here).
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T, std::size_t N>
  const T& pick(const T (&choices)[N]) { return choices[below(N)]; }

 private:
  std::uint64_t state_;
};

// FNV-1a over `count` 32-bit results: what the programs that print one
// line per warp or block print for its threads' results.
inline std::uint32_t hash_of(const unsigned* results, std::size_t count) {
  std::uint32_t hash = 2166136261u;
  for (std::size_t i = 0; i < count; ++i) hash = (hash ^ results[i]) * 16777619u;
  return hash;
}

// A program's command line: SEED CASES. False (after a usage line) when
// it is not that.
inline bool read_arguments(int argc, char** argv, std::uint64_t& seed, unsigned& cases) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SEED CASES\n", argv[0]);
    return false;
  }
  seed = std::strtoull(argv[1], nullptr, 0);
  cases = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 0));
  return true;
}

// A warp mask of one of the shapes real code uses and implementations get
// wrong: the full warp, one lane, a contiguous range, a strided pattern, a
// sparse or dense random set. Never empty.
inline std::uint32_t warp_mask(random_source& r) {
  switch (r.below(7)) {
    case 0: return 0xffffffffu;
    case 1: return 1u << r.below(32);
    case 2: {  // lanes [first, first + length)
      const std::uint32_t first = r.below(32), length = 1 + r.below(32 - first);
      return (length == 32 ? 0xffffffffu : ((1u << length) - 1)) << first;
    }
    case 3: {  // every stride-th lane from an offset
      const std::uint32_t stride = 2 + r.below(6), offset = r.below(stride);
      std::uint32_t m = 0;
      for (std::uint32_t lane = offset; lane < 32; lane += stride) m |= 1u << lane;
      return m;
    }
    case 4: {  // sparse: a few random lanes
      std::uint32_t m = 0;
      for (int k = 1 + r.below(5); k > 0; --k) m |= 1u << r.below(32);
      return m;
    }
    case 5: return r.next32() | (1u << r.below(32));
    default: return ~(1u << r.below(32));  // all but one
  }
}

// A random non-empty subset of `mask` (itself in a third of the draws).
inline std::uint32_t subset_of(random_source& r, std::uint32_t mask) {
  if (r.chance(33)) return mask;
  const std::uint32_t subset = mask & (r.next32() | r.next32());
  if (subset != 0) return subset;
  // One of mask's lanes.
  std::uint32_t lanes[32], n = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1) lanes[n++] = lane;
  return 1u << lanes[r.below(n)];
}

// A binary floating-point format's bit layout: `exponent_bits` and
// `mantissa_bits` below a sign bit, in the low bits of a 64-bit word.
struct float_format {
  int exponent_bits;
  int mantissa_bits;
  std::uint64_t sign() const { return 1ull << (exponent_bits + mantissa_bits); }
  std::uint64_t exponent_mask() const { return ((1ull << exponent_bits) - 1) << mantissa_bits; }
  std::uint64_t mantissa_mask() const { return (1ull << mantissa_bits) - 1; }
  std::uint64_t with_exponent(std::uint64_t e) const { return e << mantissa_bits; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
};
constexpr float_format binary16{5, 10}, bfloat16{8, 7}, binary32{8, 23}, binary64{11, 52};

// An exactly representable (small) double's bits in format `f`: its exponent
// and top mantissa bits, truncated (the values used are exact in every format).
inline std::uint64_t from_double(const float_format& f, double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint64_t sign = bits >> 63 ? f.sign() : 0;
  const std::uint64_t magnitude = bits & ~(1ull << 63);
  if (magnitude == 0) return sign;
  const int exponent = static_cast<int>(magnitude >> 52) - 1023 + f.bias();
  const std::uint64_t mantissa = (magnitude & ((1ull << 52) - 1)) >> (52 - f.mantissa_bits);
  return sign | f.with_exponent(static_cast<std::uint64_t>(exponent)) | mantissa;
}

// The bits of a value of format `f` from one of the edge classes.
inline std::uint64_t edge_bits(random_source& r, const float_format& f) {
  const std::uint64_t sign = r.chance(50) ? f.sign() : 0;
  const std::uint64_t mantissa = r.next() & f.mantissa_mask();
  const std::uint64_t top_exponent = f.exponent_mask() >> f.mantissa_bits;
  switch (r.below(12)) {
    case 0: return sign;  // ±0
    case 1: return sign | (mantissa ? mantissa : 1);  // denormal
    case 2: return sign | r.pick<std::uint64_t>({1, f.mantissa_mask()});  // smallest and largest denormal
    case 3: return sign | f.exponent_mask();  // ±inf
    case 4: return sign | f.exponent_mask() | (mantissa ? mantissa : 1);  // NaN, quiet or signalling, any payload
    case 5: return sign | (f.exponent_mask() - f.with_exponent(1)) | f.mantissa_mask();  // largest finite
    case 6: return sign | f.with_exponent(1) | (r.chance(50) ? 0 : mantissa);  // around the smallest normal
    case 7: {  // k/2 and k/4 for small k: halfway cases of rounding to integers
      const int k = static_cast<int>(r.below(41)) - 20;
      const double value = k / (r.chance(50) ? 2.0 : 4.0);
      return from_double(f, value);
    }
    case 8: {  // near the boundaries of integer conversions: ±2^n, n in {p, 15, 16, 31, 32, 63, 64}
      const int exponents[] = {f.mantissa_bits, f.mantissa_bits + 1, 15, 16, 31, 32, 63, 64};
      const int e = exponents[r.below(8)];
      if (e + f.bias() >= static_cast<int>(top_exponent)) return sign | f.exponent_mask();  // beyond the format: inf
      std::uint64_t bits = f.with_exponent(e + f.bias());
      if (r.chance(50)) bits -= 1 + r.below(3);  // just below the power of two
      else bits += r.below(3);
      return sign | bits;
    }
    case 9: {  // exponents around 1: ordinary arithmetic
      const int e = f.bias() - 4 + static_cast<int>(r.below(9));
      return sign | f.with_exponent(e) | mantissa;
    }
    case 10: return sign | from_double(f, r.pick({1.0, 2.0, 3.0, 0.5, 0.1, 10.0, 1e-3}));
    default: {  // any finite value
      const std::uint64_t e = r.below(static_cast<std::uint32_t>(top_exponent));
      return sign | f.with_exponent(e) | mantissa;
    }
  }
}

// A 32- or 64-bit integer from edge classes: 0, ±1, extremes, powers of two
// and their neighbours, small values, any value.
inline std::uint64_t edge_integer(random_source& r, int bits) {
  const std::uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1;
  std::uint64_t v;
  switch (r.below(7)) {
    case 0: v = r.pick<std::uint64_t>({0, 1, all, all >> 1, (all >> 1) + 1}); break;  // 0, 1, -1, MAX, MIN
    case 1: v = 1ull << r.below(bits); break;
    case 2: v = (1ull << r.below(bits)) - 1; break;
    case 3: v = r.below(64); break;
    case 4: v = 0 - static_cast<std::uint64_t>(r.below(64)); break;
    case 5: v = r.next() >> r.below(bits); break;  // any magnitude
    default: v = r.next(); break;
  }
  return v & all;
}

}  // namespace generated
