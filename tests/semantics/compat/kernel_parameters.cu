// Kernel parameters reach the device as bytes (issue 32): a parameter's
// constructors and destructor run on the host only, never in device code,
// as with nvcc. CUDA by Example's Lock frees its device memory in its
// destructor; if that ran in every CUDA thread the grid would fail.
#include <cuda_runtime.h>
#include <cstdio>

int host_copies = 0;
int host_destructions = 0;

struct Lock {
  int* mutex;
  Lock() {
    cudaMalloc(&mutex, sizeof(int));
    cudaMemset(mutex, 0, sizeof(int));
  }
  Lock(const Lock& other) : mutex(other.mutex) { ++host_copies; }
  ~Lock() {
    ++host_destructions;
    cudaFree(mutex);  // as the book's Lock does: with nvcc, on the host
  }
  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
  }
  __device__ void unlock() { atomicExch(mutex, 0); }
};

// A large trivially copyable parameter (cuda-samples' LargeKernelParameter
// passes up to 32 KB): each thread reads it without copying it again.
struct table {
  int values[2048];
};

__global__ void count(Lock lock, int* total) {
  if (threadIdx.x == 0) {
    lock.lock();
    *total += 1;
    lock.unlock();
  }
}

__global__ void modify_own_copy(table t, int* out) {
  t.values[0] += static_cast<int>(threadIdx.x);  // a parameter is the thread's own
  out[threadIdx.x] = t.values[0] + t.values[2047];
}

int main() {
  int* total = nullptr;
  cudaMallocManaged(&total, sizeof(int));
  *total = 0;
  bool ok = true;
  {
    Lock lock;
    count<<<8, 64>>>(lock, total);
    ok = cudaDeviceSynchronize() == cudaSuccess;
  }
  const int copies = host_copies, destructions = host_destructions;
  // One host copy per launch, destroyed on the host, and the original.
  ok = ok && *total == 8 && copies == 1 && destructions == 2;

  static table t;
  t.values[0] = 100;
  t.values[2047] = 5;
  int* out = nullptr;
  cudaMallocManaged(&out, 32 * sizeof(int));
  modify_own_copy<<<1, 32>>>(t, out);
  ok = ok && cudaDeviceSynchronize() == cudaSuccess && out[0] == 105 && out[31] == 136;
  std::printf("blocks counted %d, host copies %d, host destructions %d, thread 31 read %d\n%s\n", *total, copies,
              destructions, out[31], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
