// Device memory read before anything wrote it: compute-sanitizer's initcheck
// finds this on a GPU; under Valgrind (which follows cusim's fiber stacks)
// the branch on the unwritten value is reported with its line, and
// --track-origins=yes names the cudaMalloc that made the memory.
//   uninitialised <case>   unwritten: read cudaMalloc'd memory never written
//                          written: the same after a cudaMemset (nothing to report)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void count_positive(const int* in, int* count) {
  if (in[threadIdx.x] > 0) atomicAdd(count, 1);
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* in;
  int* count;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  if (!std::strcmp(which, "written")) cudaMemset(in, 0, 32 * sizeof(int));
  else if (std::strcmp(which, "unwritten") != 0) return 2;
  count_positive<<<1, 32>>>(in, count);
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%s: %s\n", which, cudaGetErrorName(cudaGetLastError()));
  cudaFree(in);
  cudaFree(count);
  return 0;
}
