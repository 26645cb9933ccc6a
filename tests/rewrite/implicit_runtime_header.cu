// nvcc includes cuda_runtime.h before every .cu file, so files that use the
// runtime without including it build; cusim-cc does the same.
extern "C" int printf(const char*, ...);

__global__ void set(int* p) { *p = 42; }

int main() {
  int* p;
  cudaMallocManaged(&p, sizeof(int));
  set<<<1, 1>>>(p);
  cudaDeviceSynchronize();
  printf("value %d\n", *p);
  // OUTPUT: value 42
  return 0;
}
