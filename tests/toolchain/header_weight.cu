// cuda_runtime.h, which cusim-cc puts in front of every .cu file, keeps out
// the standard headers that cost most of a small file's compile time: in
// C++20, <memory> brings <ostream>, and <atomic>, <chrono> and <string> bring
// <system_error> and the string classes. With them a kernel file of ten
// lines took 2 s to compile, without them 0.5 s (include/cusim/detail/atomic_cell.hpp).
// A file that needs them includes them itself, as it must with nvcc.
#if defined(_GLIBCXX_MEMORY) || defined(_LIBCPP_MEMORY)
#error "cuda_runtime.h includes <memory>"
#endif
#if defined(_GLIBCXX_ATOMIC) || defined(_LIBCPP_ATOMIC)
#error "cuda_runtime.h includes <atomic>"
#endif
#if defined(_GLIBCXX_CHRONO) || defined(_LIBCPP_CHRONO)
#error "cuda_runtime.h includes <chrono>"
#endif
#if defined(_GLIBCXX_STRING) || defined(_LIBCPP_STRING)
#error "cuda_runtime.h includes <string>"
#endif
#if defined(_GLIBCXX_OSTREAM) || defined(_LIBCPP_OSTREAM)
#error "cuda_runtime.h includes <ostream>"
#endif

__global__ void count(unsigned int* n) { atomicAdd(n, 1u); }

int main() {
  unsigned int* n;
  cudaMallocManaged(&n, sizeof *n);
  *n = 0;
  count<<<2, 32>>>(n);
  cudaDeviceSynchronize();
  std::printf("%u threads counted: %s\n", *n, *n == 64 ? "PASSED" : "FAILED");
  return *n == 64 ? 0 : 1;
}
