// Dynamic memory in device code comes from the device heap: in __global__
// and __device__ functions (and lambdas), malloc/free and new/delete are
// rewritten to cusim's; host code, member functions named free, placement
// new, operator new and deleted functions are left alone. memcpy, memmove
// and memset in device code become cusim's (which tell checking builds'
// hooks what they touch); in host code they stay the C library's.
// FLAGS: --extended-lambda
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <cuda/std/cstring>
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
  int staged[2] = {0, 0};
  std::memcpy(staged, p, sizeof(int));
  // CHECK: ::cusim::detail::device_memcpy(staged, p, sizeof(int));
  memmove(staged + 1, staged, sizeof(int));
  // CHECK: ::cusim::detail::device_memmove(staged + 1, staged, sizeof(int));
  memset(buffer, 0, sizeof buffer);
  // CHECK: ::cusim::detail::device_memset(buffer, 0, sizeof buffer);
  int* spare = staged[0] > 0 ? nullptr : ::std::memset(staged, 0, 0) == staged ? p : nullptr;
  // CHECK: int* spare = staged[0] > 0 ? nullptr : ::cusim::detail::device_memset(staged, 0, 0) == staged ? p : nullptr;
  unsigned bits = 0;
  const float one = 1.0f;
  cuda::std::memcpy(&bits, &one, sizeof bits);
  // CHECK: cuda::std::memcpy(&bits, &one, sizeof bits);
  out[0] = staged[1] + *boxed + *placed + (spare == nullptr) + (bits == 0x3f800000u) - 2;
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
  std::memcpy(host, out, sizeof(int));
  // CHECK: std::memcpy(host, out, sizeof(int));
  std::printf("value %d\n", *host);
  // OUTPUT: value 42
  free(host);
  return 0;
}
