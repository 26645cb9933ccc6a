// The device heap: malloc/free, new/delete and cudaMalloc/cudaFree in device
// code, memory that outlives the kernel that allocated it, and a heap of
// cudaLimitMallocHeapSize bytes that gives nullptr when full.
// Build with nvcc: -rdc=true -lcudadevrt (device-side cudaMalloc).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int constructed, destroyed;

struct tracked {
  int value;
  __device__ tracked() : value(5) { atomicAdd(&constructed, 1); }
  __device__ ~tracked() { atomicAdd(&destroyed, 1); }
};

struct base {
  __device__ virtual ~base() {}
  __device__ virtual int kind() const { return 1; }
};
struct derived : base {
  int payload[3] = {1, 2, 3};
  __device__ ~derived() override { atomicAdd(&destroyed, 100); }
  __device__ int kind() const override { return 2; }
};

__device__ int* kept[64];

__global__ void each_thread_allocates(int* ok) {
  const int t = threadIdx.x;
  int* numbers = static_cast<int*>(malloc((t + 1) * sizeof(int)));
  if (numbers == nullptr) return;
  for (int i = 0; i <= t; ++i) numbers[i] = t;
  int sum = 0;
  for (int i = 0; i <= t; ++i) sum += numbers[i];
  free(numbers);
  tracked* one = new tracked;
  tracked* many = new tracked[3];
  base* b = new derived;
  if (sum == t * (t + 1) && one->value == 5 && many[2].value == 5 && b->kind() == 2) atomicAdd(ok, 1);
  delete one;
  delete[] many;
  delete b;
  kept[t] = static_cast<int*>(malloc(sizeof(int)));  // freed by the next kernel
  if (kept[t] != nullptr) *kept[t] = 1000 + t;
}

__global__ void later_kernel_frees(int* sum) {
  const int t = threadIdx.x;
  if (kept[t] != nullptr) {
    atomicAdd(sum, *kept[t]);
    free(kept[t]);
  }
}

__global__ void device_cuda_malloc(int* result) {
  int* p = nullptr;
  result[0] = int(cudaMalloc(&p, 64 * sizeof(int)));
  if (p != nullptr) {
    p[63] = 42;
    result[1] = p[63];
    result[2] = int(cudaFree(p));
  }
}

__global__ void exhaust(int* nulls, size_t bytes) {
  void* p = malloc(bytes);
  nulls[0] = p == nullptr;
  free(p);
  void* small = malloc(1024);
  nulls[1] = small == nullptr;
  free(small);
}

__global__ void leak_for_host(int** out) { *out = static_cast<int*>(malloc(16)); }

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  // The heap's size is fixed when a kernel first uses it: set it first.
  expect("heap size", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20), cudaSuccess);
  int* results;
  cudaMallocManaged(&results, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) results[i] = 0;
  each_thread_allocates<<<1, 64>>>(results);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("threads whose allocations all worked", results[0], 64);
  int counts[2];
  cudaMemcpyFromSymbol(&counts[0], constructed, sizeof(int));
  cudaMemcpyFromSymbol(&counts[1], destroyed, sizeof(int));
  expect("constructed (1 + 3 per thread)", counts[0], 64 * 4);
  expect("destroyed (4 tracked + a derived per thread)", counts[1], 64 * 104);

  later_kernel_frees<<<1, 64>>>(&results[1]);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("values kept across kernels", results[1], 64 * 1000 + 63 * 64 / 2);

  device_cuda_malloc<<<1, 1>>>(&results[2]);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("device cudaMalloc", results[2], cudaSuccess);
  expect("its memory", results[3], 42);
  expect("device cudaFree", results[4], cudaSuccess);

  exhaust<<<1, 1>>>(&results[5], size_t(8) << 20);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("more than the heap: nullptr", results[5], 1);
  expect("a small block still fits", results[6], 0);

  int** out;
  cudaMallocManaged(&out, sizeof(int*));
  leak_for_host<<<1, 1>>>(out);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  const cudaError_t host_free = cudaFree(*out);
  std::printf("host cudaFree of device-heap memory: %s\n", cudaGetErrorName(host_free));
  expect("host cudaFree of device-heap memory", host_free, cudaErrorInvalidValue);
  cudaGetLastError();

  std::printf("device heap: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
