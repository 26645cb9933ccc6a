// Generated differential cases: device printf's conversions.
//   device_printf SEED CASES
// Each case is one printf from one thread (so the order is fixed) of a
// format drawn from every conversion (d i u x X o c e E f F g G a A s),
// with random flags (- + space # 0), width, precision and length modifier
// (hh h l ll), of a value from edge classes (zero, extremes, powers of two,
// denormals, infinities, NaN, halfway cases of rounding). The host builds
// each format string; the kernel prints it with the case's value. The
// golden comes from an H100 (tests/differential.txt); random_cases.hpp
// draws the cases from SEED.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bits.hpp"
#include "random_cases.hpp"

constexpr int format_bytes = 32;
struct printf_case {
  char format[format_bytes];
  unsigned kind;  // 0 int, 1 long long, 2 double, 3 string, 4 char
  unsigned long long value;
};

__global__ void print_cases(const printf_case* cases, unsigned count) {
  for (unsigned k = 0; k < count; ++k) {
    const printf_case& c = cases[k];
    switch (c.kind) {
      case 0: printf(c.format, k, int(c.value)); break;
      case 1: printf(c.format, k, (long long)c.value); break;
      case 2: printf(c.format, k, from_bits<double>(c.value)); break;
      case 3: printf(c.format, k, c.value % 2 ? "cusim" : ""); break;
      default: printf(c.format, k, int(c.value % 94 + 32)); break;
    }
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  std::vector<printf_case> cases(count);
  const char* const integer_conversions[] = {"d", "i", "u", "x", "X", "o"};
  const char* const float_conversions[] = {"e", "E", "f", "F", "g", "G", "a", "A"};
  const char* const flags[] = {"", "-", "+", " ", "#", "0", "-+", "#0", "+0", " #"};
  for (printf_case& c : cases) {
    c.kind = r.below(5);
    std::string spec = "%";
    spec += flags[r.below(10)];
    if (r.chance(50)) spec += std::to_string(r.below(25));
    if (c.kind != 4 && r.chance(40)) spec += "." + std::to_string(r.below(c.kind == 2 ? 20 : 12));
    switch (c.kind) {
      case 0:
        spec += r.pick({"", "", "h"});  // not hh: an H100 prints %hhu wrongly (docs/differential-testing.md)
        spec += integer_conversions[r.below(6)];
        c.value = generated::edge_integer(r, 32);
        break;
      case 1:
        spec += r.pick({"ll", "l"});
        spec += integer_conversions[r.below(6)];
        c.value = generated::edge_integer(r, 64);
        break;
      case 2:
        spec += float_conversions[r.below(8)];
        c.value = generated::edge_bits(r, generated::binary64);
        break;
      case 3: spec += "s"; c.value = r.below(2); break;
      default: spec += "c"; c.value = r.below(94); break;
    }
    const std::string format = "%u [" + spec + "]\n";
    std::snprintf(c.format, format_bytes, "%s", format.c_str());
  }
  printf_case* device_cases;
  cudaMalloc(&device_cases, count * sizeof(printf_case));
  cudaMemcpy(device_cases, cases.data(), count * sizeof(printf_case), cudaMemcpyHostToDevice);
  std::printf("device printf, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  std::fflush(stdout);
  print_cases<<<1, 1>>>(device_cases, count);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
