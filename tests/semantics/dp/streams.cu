// Dynamic parallelism, CUDA 12 model: device-side streams and events, copies
// and sets in device code, the tail-launch chain, and the launch limits.
// Build with nvcc: -rdc=true -lcudadevrt.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* data, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}
__global__ void add_from(int* to, const int* from, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) to[i] += from[i];
}

// Two halves in two non-blocking streams, as a recursive sort does.
__global__ void halves_in_streams(int* data, int n, int* errors) {
  cudaStream_t left, right;
  if (cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(errors, 1);
  if (cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(errors, 1);
  fill<<<1, n / 2, 0, left>>>(data, n / 2, 1);
  fill<<<1, n / 2, 0, right>>>(data + n / 2, n / 2, 2);
  if (cudaStreamDestroy(left) != cudaSuccess) atomicAdd(errors, 1);
  if (cudaStreamDestroy(right) != cudaSuccess) atomicAdd(errors, 1);
}

// An event recorded in one stream orders a launch in another after it.
__global__ void event_between_streams(int* a, int* b, int n, int* errors) {
  cudaStream_t first, second;
  cudaEvent_t done;
  cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess) atomicAdd(errors, 1);
  fill<<<1, n, 0, first>>>(a, n, 5);
  if (cudaEventRecord(done, first) != cudaSuccess) atomicAdd(errors, 1);
  if (cudaStreamWaitEvent(second, done, 0) != cudaSuccess) atomicAdd(errors, 1);
  fill<<<1, n, 0, second>>>(b, n, 1);
  add_from<<<1, n, 0, second>>>(b, a, n);  // after fill(a) through the event
  cudaEventDestroy(done);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
}

// Copies and sets in device code keep their place in the block's stream.
__global__ void copy_after_launch(int* src, int* dst, int* cleared, int n, int* errors) {
  fill<<<1, n>>>(src, n, 9);
  if (cudaMemcpyAsync(dst, src, n * sizeof(int), cudaMemcpyDeviceToDevice, 0) != cudaSuccess) atomicAdd(errors, 1);
  if (cudaMemsetAsync(cleared, 0, n * sizeof(int), 0) != cudaSuccess) atomicAdd(errors, 1);
  fill<<<1, n / 2>>>(cleared, n / 2, 3);  // after the set
}

// Flags the device runtime refuses.
__global__ void refused_flags(int* results) {
  cudaStream_t s;
  cudaEvent_t e;
  results[0] = int(cudaStreamCreateWithFlags(&s, cudaStreamDefault));
  results[1] = int(cudaEventCreateWithFlags(&e, cudaEventDefault));
}

// A tail launch runs at its launcher's depth, so a chain of them may be far
// longer than the nesting limit of 24.
__global__ void tail_chain(int* count, int length) {
  const int c = atomicAdd(count, 1) + 1;
  if (c < length) tail_chain<<<1, 1, 0, cudaStreamTailLaunch>>>(count, length);
}

// More launches than the pending-launch buffer holds while none can start.
__global__ void empty() {}
__global__ void many_launches(int* results, int launches) {
  for (int i = 0; i < launches; ++i) {
    empty<<<1, 1>>>();
    results[i] = int(cudaGetLastError());
  }
}

// In the CUDA 12 model nesting has no limit of its own: a chain of grids,
// each launching one child and so pending until it completes, stops when the
// pending-launch buffer (2048) is full.
__global__ void deep(int* deepest, int* error, int depth) {
  atomicMax(deepest, depth);
  deep<<<1, 1>>>(deepest, error, depth + 1);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) *error = int(e);
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  const int n = 64;
  int *a, *b, *c, *errors;
  cudaMallocManaged(&a, n * sizeof(int));
  cudaMallocManaged(&b, n * sizeof(int));
  cudaMallocManaged(&c, n * sizeof(int));
  cudaMallocManaged(&errors, sizeof(int));
  *errors = 0;

  halves_in_streams<<<1, 1>>>(a, n, errors);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("each half by its stream", a[i], i < n / 2 ? 1 : 2);

  event_between_streams<<<1, 1>>>(a, b, n, errors);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("ordered by the event", b[i], 6);

  copy_after_launch<<<1, 1>>>(a, b, c, n, errors);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("copied after the launch before it", b[i], 9);
  for (int i = 0; i < n; ++i) expect("set, then filled", c[i], i < n / 2 ? 3 : 0);
  expect("no device runtime call failed", *errors, 0);

  int* results;
  cudaMallocManaged(&results, 64 * sizeof(int));
  refused_flags<<<1, 1>>>(results);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("device stream without cudaStreamNonBlocking (taken, on an H100)", results[0], cudaSuccess);
  expect("device event without cudaEventDisableTiming", results[1], cudaErrorInvalidValue);

  int* count;
  cudaMallocManaged(&count, sizeof(int));
  *count = 0;
  tail_chain<<<1, 1>>>(count, 100);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("tail launches in a chain of 100", *count, 100);

  expect("pending launch limit", cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32), cudaSuccess);
  many_launches<<<1, 1>>>(results, 48);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  int launched = 0, first_error = 0;
  for (int i = 0; i < 48; ++i) {
    if (results[i] == cudaSuccess) ++launched;
    else if (first_error == 0) first_error = results[i];
  }
  // Children start, and complete, while their parent goes on launching.
  expect("48 launches with a pending limit of 32", launched, 48);
  expect("no error", first_error, 0);
  cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048);

  int *deepest, *error;
  cudaMallocManaged(&deepest, sizeof(int));
  cudaMallocManaged(&error, sizeof(int));
  *deepest = 0;
  *error = 0;
  deep<<<1, 1>>>(deepest, error, 0);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("deepest grid", *deepest, 2048);
  expect("the launch below it", *error, cudaErrorLaunchPendingCountExceeded);

  std::printf("device streams and events: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
