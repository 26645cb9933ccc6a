// C++ lexing the rewriter must get right for what follows to be rewritten:
// digit separators (whose ' opens no character literal), raw strings with
// encoding prefixes (whose " and <<< are text), prefixed character literals.
#include <cstdio>
#include <string>
#include <cuda_runtime.h>

__global__ void count(int* n) { atomicAdd(n, 1); }

int main() {
  const long big = 1'000'000;
  const double tiny = 1.5e-3, hex = 0x1p+3;
  const char16_t* raw = uR"x(a "quoted" count<<<1, 1>>>(n) )x";
  const wchar_t* wide = LR"(also "raw" <<<)";
  const char32_t letter = U'x';
  int* n;
  cudaMallocManaged(&n, sizeof(int));
  *n = 0;
  count<<<2, 3>>>(n);
  count<<<1, \
          0>>>(n);  // a line continuation inside the configuration (and 0 threads: a launch error)
  // CHECK: const long big = 1'000'000;
  // CHECK: uR"x(a "quoted" count<<<1, 1>>>(n) )x"
  // CHECK: LR"(also "raw" <<<)"
  // CHECK: launch_named("count", count, 2, 3).calling_by_name([](auto&&... __cusim_arguments) { (count)(__cusim_arguments...); })(n);
  // CHECK: launch_named("count", count, 1, 0).calling_by_name([](auto&&... __cusim_arguments) { (count)(__cusim_arguments...); })(n);
  cudaDeviceSynchronize();
  std::printf("%d %ld %g %g %zu %zu %d\n", *n, big, tiny, hex, std::char_traits<char16_t>::length(raw),
              std::char_traits<wchar_t>::length(wide), int(letter));
  // OUTPUT: 6 1000000 0.0015 8 30 14 120
  return 0;
}
