// Host code that uses OpenMP beside a kernel, built as HeCBench's Makefiles
// build theirs: compiled with -Xcompiler -fopenmp, then linked by a second
// command with the same flag, which nvcc hands to the host compiler that
// links (the OpenMP runtime comes with it). Plain CUDA: nvcc builds it too.
#include <cstdio>
#include <omp.h>

__global__ void add_one(int* value) { *value += 1; }

int main() {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; ++i) sum += i;
  int* value;
  cudaMallocManaged(&value, sizeof(int));
  *value = sum;
  add_one<<<1, 1>>>(value);
  cudaDeviceSynchronize();
  std::printf("sum %d, OpenMP threads available: %s\n", *value, omp_get_max_threads() >= 1 ? "yes" : "no");
  return 0;
}
