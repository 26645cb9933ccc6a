// Dynamic parallelism in the CUDA 12 model: kernels launching kernels from
// device code. A child sees what its parent wrote before launching it;
// children nest; a tail launch runs after the rest of its parent's work
// (fire-and-forget children and their own children); a bad child
// configuration is the launching thread's own last error.
// Build with nvcc: -rdc=true -lcudadevrt.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int order;  // a sequence number for launches that record when they ran

__global__ void add_one(int* data) { data[threadIdx.x] += 1; }

__global__ void parent_writes_then_launches(int* data) {
  data[threadIdx.x] = 10 * int(threadIdx.x);
  __syncthreads();  // the whole block's writes come before the launch
  if (threadIdx.x == 0) add_one<<<1, blockDim.x>>>(data);
}

__global__ void nest(int* levels, int depth, int max_depth) {
  atomicAdd(&levels[depth], 1);
  if (depth < max_depth && threadIdx.x == 0) nest<<<2, 4>>>(levels, depth + 1, max_depth);
}

__global__ void record(int* when, int slot) {
  when[slot] = atomicAdd(&order, 1);
  if (slot == 0) record<<<1, 1, 0, cudaStreamFireAndForget>>>(when, 1);  // a grandchild of the parent below
}

__global__ void tail_after_the_rest(int* when) {
  record<<<1, 1, 0, cudaStreamTailLaunch>>>(when, 2);
  record<<<1, 1, 0, cudaStreamFireAndForget>>>(when, 0);
}

__global__ void bad_child(int* errors) {
  if (threadIdx.x == 1) add_one<<<1, 2048>>>(errors);  // more threads than a block may have
  errors[4 + threadIdx.x] = int(cudaPeekAtLastError());
  errors[threadIdx.x] = int(cudaGetLastError());
  errors[8 + threadIdx.x] = int(cudaGetLastError());  // cleared by the call before
}

// The appendix's recursive permute, with dynamic shared memory at each
// level (each block as wide as its range, so its shared array holds it):
// reverse the range in shared memory, write it back, then permute each half
// in a child grid of its own.
__global__ void permute(int n, int* data) {
  extern __shared__ int smem[];
  if (n <= 1) return;
  smem[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  const int reversed = smem[n - 1 - threadIdx.x];
  __syncthreads();
  smem[threadIdx.x] = reversed;
  __syncthreads();
  data[threadIdx.x] = smem[threadIdx.x];  // back to global memory: a child cannot see this block's shared memory
  __syncthreads();
  if (threadIdx.x == 0) {
    permute<<<1, n / 2, n / 2 * sizeof(int)>>>(n / 2, data);
    permute<<<1, n / 2, n / 2 * sizeof(int)>>>(n / 2, data + n / 2);
  }
}

void permute_on_host(int n, int* data) {
  if (n <= 1) return;
  for (int i = 0; i < n / 2; ++i) {
    const int t = data[i];
    data[i] = data[n - 1 - i];
    data[n - 1 - i] = t;
  }
  permute_on_host(n / 2, data);
  permute_on_host(n / 2, data + n / 2);
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  int* data;
  cudaMallocManaged(&data, 64 * sizeof(int));
  parent_writes_then_launches<<<1, 32>>>(data);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 32; ++i) expect("child saw the parent's writes", data[i], 10 * i + 1);

  int* levels;
  cudaMallocManaged(&levels, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) levels[i] = 0;
  nest<<<2, 4>>>(levels, 0, 5);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  // Level d has 2^d grids (one per launching block) of 2 blocks of 4 threads.
  for (int d = 0; d <= 5; ++d) expect("threads at each nesting level", levels[d], 8 << d);

  int* when;
  cudaMallocManaged(&when, 3 * sizeof(int));
  const int zero = 0;
  cudaMemcpyToSymbol(order, &zero, sizeof zero);
  tail_after_the_rest<<<1, 1>>>(when);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("fire-and-forget child first", when[0], 0);
  expect("its own child before the tail launch", when[1], 1);
  expect("tail launch last", when[2], 2);

  int* permuted;
  int expected[256];
  cudaMallocManaged(&permuted, 256 * sizeof(int));
  for (int i = 0; i < 256; ++i) permuted[i] = expected[i] = i;
  permute<<<1, 256, 256 * sizeof(int)>>>(256, permuted);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  permute_on_host(256, expected);
  for (int i = 0; i < 256; ++i) expect("recursive permute", permuted[i], expected[i]);

  int* errors;
  cudaMallocManaged(&errors, 12 * sizeof(int));
  bad_child<<<1, 4>>>(errors);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("the launching thread's error", errors[1], cudaErrorInvalidConfiguration);
  expect("peeked first", errors[5], cudaErrorInvalidConfiguration);
  expect("then cleared", errors[9], cudaSuccess);
  expect("another thread's error", errors[0], cudaSuccess);
  std::printf("device launches: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
