// Kernel parameters of reference type, as NVIDIA's unified-memory examples
// write them (code-samples' dataElem_um_c++_2.cu: `__global__ void
// Kernel(dataElem& elem)`). nvcc passes a reference as the argument's
// address, so the kernel's writes reach the argument, which must be in
// managed memory; cusim does the same, through the call by name, for a
// kernel template given its arguments or deducing them, and through a
// pointer to the kernel, and where the launch leaves later parameters to
// their defaults. (A const reference is read as a value: cusim copies it.)
#include <cstdio>
#include <cuda_runtime.h>

struct element {
  int value;
  int seen;
};

__global__ void bump(element& e) { atomicAdd(&e.value, 1); }
template <class T>
__global__ void bump_given(T& e, int by) { atomicAdd(&e.value, by); }
__global__ void read_const(const element& e, int* out) { out[threadIdx.x] = e.value; }
// A launch that leaves the parameters after the reference to their defaults.
__global__ void bump_defaulted(element& e, int by = 5, int times = 2) {
  if (threadIdx.x == 0) atomicAdd(&e.value, by * times);
}

int main() {
  element* e = nullptr;
  int* out = nullptr;
  cudaMallocManaged(&e, sizeof(element));
  cudaMallocManaged(&out, 32 * sizeof(int));
  e->value = 10;
  bump<<<2, 32>>>(*e);
  bump_given<element><<<1, 32>>>(*e, 100);
  bump_given<<<1, 1>>>(*e, 1000);  // T deduced: element, and the argument's address
  void (*through_pointer)(element&) = bump;
  through_pointer<<<1, 1>>>(*e);
  bump_defaulted<<<1, 32>>>(*e);     // 5 * 2
  bump_defaulted<<<1, 32>>>(*e, 3);  // 3 * 2
  cudaDeviceSynchronize();
  read_const<<<1, 32>>>(*e, out);
  cudaDeviceSynchronize();
  printf("reference parameters: value %d, read %d %d, %s\n", e->value, out[0], out[31],
         cudaGetErrorString(cudaGetLastError()));
  return 0;
}
