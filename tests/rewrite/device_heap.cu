// Dynamic memory in device code comes from the device heap: in __global__
// and __device__ functions (and lambdas), malloc/free and new/delete are
// rewritten to cusim's; host code, member functions named free, placement
// new, operator new and deleted functions are left alone.
// FLAGS: --extended-lambda
#include <cstdio>
#include <cstdlib>
#include <new>
#include <cuda_runtime.h>

struct pool {
  int slots[4];
  __device__ void free(int) {}
};

struct no_copy {
  no_copy() = default;
  no_copy(const no_copy&) = delete;
  // CHECK: no_copy(const no_copy&) = delete;
};

__device__ int* make(int n) {
  int* p = static_cast<int*>(std::malloc(n * sizeof(int)));
  // CHECK: int* p = static_cast<int*>(::cusim::detail::device_malloc(n * sizeof(int)));
  return p;
}

__global__ void kernel(int* out) {
  int* p = make(4);
  pool q;
  q.free(1);
  // CHECK: q.free(1);
  p[0] = 40;
  int* boxed = new int(2);
  // CHECK: int* boxed = new (::cusim::detail::device_heap) int(2);
  alignas(int) unsigned char buffer[sizeof(int)];
  int* placed = new (buffer) int(0);
  // CHECK: int* placed = new (buffer) int(0);
  out[0] = p[0] + *boxed + *placed;
  free(p);
  // CHECK: ::cusim::detail::device_free(p);
  delete boxed;
  // CHECK: ::cusim::detail::device_delete() = boxed;
  int* several = new int[3];
  delete[] several;
  // CHECK: ::cusim::detail::device_delete_array() = several;
  auto in_lambda = [] __device__ () { return malloc(8); };
  // CHECK: () { return ::cusim::detail::device_malloc(8); };
  ::free(in_lambda());
}

int main() {
  int* out;
  cudaMallocManaged(&out, sizeof(int));
  kernel<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  int* host = static_cast<int*>(malloc(sizeof(int)));
  // CHECK: int* host = static_cast<int*>(malloc(sizeof(int)));
  *host = out[0];
  std::printf("value %d\n", *host);
  // OUTPUT: value 42
  free(host);
  return 0;
}
