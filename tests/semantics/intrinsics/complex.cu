// <cuComplex.h> in a kernel: every function over values chosen to show how
// each rounds (products and sums fused as nvcc fuses them), scales
// (division and modulus near overflow and underflow) and treats zero,
// infinity and NaN. Printed as bits, compared with an H100 by
// diff.intrinsics.complex. A NaN prints as "nan": its bits are the GPU's
// arithmetic's (0x7fffffff), not a property of these functions.
#include <cstdio>
#include <cstring>
#include <string>
#include <cuComplex.h>

namespace {

constexpr int value_count = 10;

__device__ const float float_parts[value_count][2] = {
    {1.0f, 2.0f},          {-3.5f, 0.25f},       {1.0000001f, -0.9999999f}, {3.0e38f, 2.0e38f}, {1.0e-30f, -3.0e-31f},
    {0.0f, 0.0f},          {0.1f, 0.7f},         {-1.0f / 3.0f, 2.0f / 3.0f}, {1.0e20f, 1.0e-20f}, {16777215.0f, 3.0f}};
__device__ const double double_parts[value_count][2] = {
    {1.0, 2.0},  {-3.5, 0.25}, {1.0000000000000002, -0.9999999999999999}, {1.0e308, 8.0e307}, {1.0e-300, -3.0e-301},
    {0.0, 0.0},  {0.1, 0.7},   {-1.0 / 3.0, 2.0 / 3.0},                   {1.0e200, 1.0e-200}, {9007199254740991.0, 3.0}};

constexpr int slots = value_count * value_count * 12;

__global__ void float_functions(unsigned* out) {
  const int a = threadIdx.x / value_count, b = threadIdx.x % value_count;
  const cuFloatComplex x = make_cuFloatComplex(float_parts[a][0], float_parts[a][1]);
  const cuFloatComplex y = make_cuComplex(float_parts[b][0], float_parts[b][1]);
  const cuFloatComplex d = cuConjf(make_cuFloatComplex(float_parts[b][1], float_parts[a][0]));
  const cuFloatComplex results[] = {cuCmulf(x, y), cuCdivf(x, y), cuCfmaf(x, y, d), cuCaddf(x, y), cuCsubf(x, y),
                                    make_cuFloatComplex(cuCabsf(x), cuCrealf(x) + cuCimagf(y))};
  unsigned* slot = out + threadIdx.x * 12;
  for (const cuFloatComplex& r : results) {
    std::memcpy(slot++, &r.x, 4);
    std::memcpy(slot++, &r.y, 4);
  }
}

__global__ void double_functions(unsigned long long* out) {
  const int a = threadIdx.x / value_count, b = threadIdx.x % value_count;
  const cuDoubleComplex x = make_cuDoubleComplex(double_parts[a][0], double_parts[a][1]);
  const cuDoubleComplex y = make_cuDoubleComplex(double_parts[b][0], double_parts[b][1]);
  const cuDoubleComplex d = cuConj(make_cuDoubleComplex(double_parts[b][1], double_parts[a][0]));
  const cuDoubleComplex results[] = {cuCmul(x, y), cuCdiv(x, y), cuCfma(x, y, d), cuCadd(x, y), cuCsub(x, y),
                                     make_cuDoubleComplex(cuCabs(x), cuCreal(x) + cuCimag(y))};
  unsigned long long* slot = out + threadIdx.x * 12;
  for (const cuDoubleComplex& r : results) {
    std::memcpy(slot++, &r.x, 8);
    std::memcpy(slot++, &r.y, 8);
  }
  // The conversions, once.
  if (threadIdx.x == 0) {
    const cuFloatComplex narrowed = cuComplexDoubleToFloat(make_cuDoubleComplex(0.1, 1.0e300));
    const cuDoubleComplex widened = cuComplexFloatToDouble(make_cuFloatComplex(0.1f, -2.5f));
    unsigned bits[2];
    std::memcpy(bits, &narrowed, 8);
    out[slots] = bits[0];
    out[slots + 1] = bits[1];
    std::memcpy(&out[slots + 2], &widened.x, 8);
    std::memcpy(&out[slots + 3], &widened.y, 8);
  }
}

template <class Bits>
void print_value(const char* name, Bits re, Bits im) {
  const auto text = [](Bits bits) {
    char buffer[24];
    if constexpr (sizeof(Bits) == 4) {
      float value;
      std::memcpy(&value, &bits, 4);
      if (value != value) return std::string("nan");
      std::snprintf(buffer, sizeof buffer, "%08x", unsigned(bits));
    } else {
      double value;
      std::memcpy(&value, &bits, 8);
      if (value != value) return std::string("nan");
      std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(bits));
    }
    return std::string(buffer);
  };
  std::printf(" %s %s %s", name, text(re).c_str(), text(im).c_str());
}

}  // namespace

int main() {
  unsigned* floats;
  unsigned long long* doubles;
  cudaMallocManaged(&floats, slots * sizeof(unsigned));
  cudaMallocManaged(&doubles, (slots + 4) * sizeof(unsigned long long));
  float_functions<<<1, value_count * value_count>>>(floats);
  double_functions<<<1, value_count * value_count>>>(doubles);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const char* names[] = {"mul", "div", "fma", "add", "sub", "abs"};
  for (int pair = 0; pair < value_count * value_count; ++pair) {
    std::printf("pair %d %d:", pair / value_count, pair % value_count);
    for (int k = 0; k < 6; ++k) print_value(names[k], floats[pair * 12 + 2 * k], floats[pair * 12 + 2 * k + 1]);
    std::printf("\n");
    std::printf("pair %d %d double:", pair / value_count, pair % value_count);
    for (int k = 0; k < 6; ++k) print_value(names[k], doubles[pair * 12 + 2 * k], doubles[pair * 12 + 2 * k + 1]);
    std::printf("\n");
  }
  std::printf("narrowed %08llx %08llx widened %016llx %016llx\n", doubles[slots], doubles[slots + 1], doubles[slots + 2],
              doubles[slots + 3]);
  return 0;
}
