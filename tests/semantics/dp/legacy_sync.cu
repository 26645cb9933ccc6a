// Dynamic parallelism in the legacy model (CDP1): device-side
// cudaDeviceSynchronize() waits for every grid the calling thread's block
// has launched so far. CUDA 11.6-12 kept it for GPUs before sm_90 in programs
// built with -DCUDA_FORCE_CDP1_IF_SUPPORTED (on the command line: nvcc, like
// cusim-cc, includes cuda_runtime.h before the file's first line). A GPU of
// sm_90 or later cannot run it, so this test runs on cusim only.
#include <cstdio>
#include <cuda_runtime.h>

// The appendix's coherence example: the child sees the block's writes made
// before the launch (thanks to the first __syncthreads), thread 0 sees the
// child's writes after synchronising, the other threads after the second
// __syncthreads.
__global__ void child_launch(int* data) { data[threadIdx.x] = data[threadIdx.x] + 1; }

__global__ void parent_launch(int* data, int* seen) {
  data[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    child_launch<<<1, 256>>>(data);
    cudaDeviceSynchronize();
  }
  __syncthreads();
  seen[threadIdx.x] = data[(threadIdx.x + 1) % 256];  // another thread's element
}

// One thread launches, another synchronises: the wait covers the whole
// block's launches made before it (ordered by __syncthreads).
__global__ void set_to(int* slot, int value) { *slot = value; }
__global__ void sync_covers_the_block(int* out) {
  if (threadIdx.x == 1) set_to<<<1, 1>>>(&out[0], 7);
  __syncthreads();
  if (threadIdx.x == 0) {
    out[1] = int(cudaDeviceSynchronize());
    out[2] = out[0];  // the child has finished
  }
}

// Every thread launches its own child and waits for it.
__global__ void square(int* slot) { *slot = *slot * *slot; }
__global__ void each_thread_waits(int* values) {
  int* mine = &values[blockIdx.x * blockDim.x + threadIdx.x];
  *mine = int(threadIdx.x);
  square<<<1, 1>>>(mine);
  cudaDeviceSynchronize();
  *mine += 1;  // after its own child
}

// Recursion that synchronises at each level: the sum of 1..n, one level a
// number, each level waiting for the one below.
__global__ void sum_down(int* partial, int n, int* errors) {
  if (n == 0) {
    partial[0] = 0;
    return;
  }
  sum_down<<<1, 1>>>(partial, n - 1, errors);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) atomicAdd(errors, 1);
  partial[n] = partial[n - 1] + n;
}

// The synchronisation depth limit: a grid at depth >= the limit may launch,
// but its cudaDeviceSynchronize() fails.
__global__ void leaf() {}
__global__ void sync_at_depth(int* results, int depth, int max_depth) {
  if (depth < max_depth) sync_at_depth<<<1, 1>>>(results, depth + 1, max_depth);
  leaf<<<1, 1>>>();
  results[depth] = int(cudaDeviceSynchronize());
}

// In the legacy model nesting is limited to 24 levels below the host's grid.
__global__ void nest_down(int* deepest, int* error, int depth) {
  atomicMax(deepest, depth);
  nest_down<<<1, 1>>>(deepest, error, depth + 1);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) *error = int(e);
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  int *data, *seen;
  cudaMallocManaged(&data, 256 * sizeof(int));
  cudaMallocManaged(&seen, 256 * sizeof(int));
  parent_launch<<<1, 256>>>(data, seen);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 256; ++i) expect("parent threads see the child's writes", seen[i], (i + 1) % 256 + 1);

  int* out;
  cudaMallocManaged(&out, 3 * sizeof(int));
  out[0] = 0;
  sync_covers_the_block<<<1, 32>>>(out);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("device synchronize succeeds", out[1], cudaSuccess);
  expect("another thread's child has finished", out[2], 7);

  int* values;
  cudaMallocManaged(&values, 64 * sizeof(int));
  each_thread_waits<<<2, 32>>>(values);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 64; ++i) expect("each thread after its child", values[i], (i % 32) * (i % 32) + 1);

  int *partial, *errors;
  cudaMallocManaged(&partial, 16 * sizeof(int));
  cudaMallocManaged(&errors, sizeof(int));
  *errors = 0;
  expect("raise the sync depth", cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 12), cudaSuccess);
  sum_down<<<1, 1>>>(partial, 10, errors);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("no level failed to synchronise", *errors, 0);
  expect("sum of 1..10, level by level", partial[10], 55);

  size_t depth = 0;
  expect("restore the default", cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 2), cudaSuccess);
  expect("read the sync depth", cudaDeviceGetLimit(&depth, cudaLimitDevRuntimeSyncDepth), cudaSuccess);
  expect("default sync depth", (long long)depth, 2);
  int* results;
  cudaMallocManaged(&results, 4 * sizeof(int));
  sync_at_depth<<<1, 1>>>(results, 0, 3);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("depth 0 may synchronise", results[0], cudaSuccess);
  expect("depth 1 may synchronise", results[1], cudaSuccess);
  expect("depth 2 may not", results[2], cudaErrorSyncDepthExceeded);
  expect("depth 3 may not", results[3], cudaErrorSyncDepthExceeded);

  int* chain;
  cudaMallocManaged(&chain, 2 * sizeof(int));
  chain[0] = chain[1] = 0;
  nest_down<<<1, 1>>>(&chain[0], &chain[1], 0);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("deepest legacy grid", chain[0], 24);
  expect("the launch below it", chain[1], cudaErrorLaunchMaxDepthExceeded);

  std::printf("legacy device synchronize: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
