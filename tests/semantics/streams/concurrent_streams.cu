// Work in different streams may overlap, and cusim runs it so: a kernel that
// waits for another stream's kernel or copy sees it run. Seen through
// ordering, never through timing: each kernel here waits for a flag that only
// other work (or the host) sets, so a run that serialised the streams would
// hang (and the test's timeout would fail it). Also: the legacy default
// stream's barrier between blocking streams, which non-blocking streams skip,
// and cudaStreamWaitEvent across streams.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_until(volatile int* flag, int value) {
  while (*flag < value) __nanosleep(1000);
}
__global__ void store(int* slot, int value) {
  __threadfence_system();
  *reinterpret_cast<volatile int*>(slot) = value;
}
// Waits for `flag`, then writes `value` to `slot` (which proves it ran after).
__global__ void wait_then_store(volatile int* flag, int value, int* slot, int stored) {
  while (*flag < value) __nanosleep(1000);
  *slot = stored;
}

// CUDA loads a kernel's code at its first launch (lazy loading, the
// default since CUDA 12), which waits for the kernels running: a kernel
// waiting for one launched after it then deadlocks on a GPU. Asking for each
// kernel's attributes loads them all first, as NVIDIA advises.
void load_kernels() {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, wait_until);
  cudaFuncGetAttributes(&attributes, store);
  cudaFuncGetAttributes(&attributes, wait_then_store);
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  load_kernels();
  int* flags;   // mapped: the host and every kernel see the same words
  int* pinned;  // source of an async copy
  cudaHostAlloc(&flags, 8 * sizeof(int), cudaHostAllocMapped);
  cudaMallocHost(&pinned, sizeof(int));
  int* device_flag;
  cudaMalloc(&device_flag, sizeof(int));
  cudaMemset(device_flag, 0, sizeof(int));
  for (int i = 0; i < 8; ++i) flags[i] = 0;

  cudaStream_t first, second, blocking, nonblocking;
  cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);

  // 1. A kernel waits for a kernel launched after it in another stream.
  wait_until<<<1, 32, 0, first>>>(&flags[0], 1);
  expect("the waiting kernel is running", cudaStreamQuery(first), cudaErrorNotReady);
  store<<<1, 1, 0, second>>>(&flags[0], 1);
  expect("the other stream's kernel ran while the first waited", cudaStreamSynchronize(second), cudaSuccess);
  expect("which let the first finish", cudaStreamSynchronize(first), cudaSuccess);

  // 2. A kernel waits for an async copy queued after it in another stream.
  *pinned = 5;
  wait_until<<<2, 64, 0, first>>>(device_flag, 5);
  cudaMemcpyAsync(device_flag, pinned, sizeof(int), cudaMemcpyHostToDevice, second);
  expect("kernel released by another stream's copy", cudaStreamSynchronize(first), cudaSuccess);

  // 3. A long kernel in one stream does not hold up another: the second
  // stream's work completes, and is seen to, while the first still waits for the host.
  wait_until<<<1, 1, 0, first>>>(&flags[1], 1);
  store<<<1, 1, 0, second>>>(&flags[2], 7);
  expect("second stream synchronised while the first runs", cudaStreamSynchronize(second), cudaSuccess);
  expect("its kernel ran", flags[2], 7);
  expect("the first stream still runs", cudaStreamQuery(first), cudaErrorNotReady);
  flags[1] = 1;
  expect("the first stream, released", cudaStreamSynchronize(first), cudaSuccess);

  // 4. The legacy default stream waits for blocking streams, and blocking
  // streams wait for it; a non-blocking stream waits for neither.
  wait_until<<<1, 1, 0, blocking>>>(&flags[3], 1);  // held by the host
  wait_then_store<<<1, 1>>>(&flags[3], 1, &flags[4], 1);  // legacy: behind the blocking stream
  store<<<1, 1, 0, blocking>>>(&flags[5], 1);  // blocking again: behind the legacy stream's kernel
  store<<<1, 1, 0, nonblocking>>>(&flags[6], 1);
  expect("a non-blocking stream skips the legacy barrier", cudaStreamSynchronize(nonblocking), cudaSuccess);
  expect("its kernel ran", flags[6], 1);
  expect("the legacy stream waits for the blocking stream", cudaStreamQuery(0), cudaErrorNotReady);
  expect("so its kernel has not run", flags[4], 0);
  expect("the blocking stream's later kernel waits for the legacy stream", flags[5], 0);
  flags[3] = 1;
  expect("device synchronised", cudaDeviceSynchronize(), cudaSuccess);
  expect("legacy kernel ran", flags[4], 1);
  expect("blocking stream's later kernel ran", flags[5], 1);

  // 5. cudaStreamWaitEvent: the second stream's later work follows the
  // event's record in the first, not the first stream's later work.
  cudaEvent_t recorded;
  cudaEventCreateWithFlags(&recorded, cudaEventDisableTiming);
  flags[7] = 0;
  wait_until<<<1, 1, 0, first>>>(&flags[7], 1);
  cudaEventRecord(recorded, first);
  wait_until<<<1, 1, 0, first>>>(&flags[7], 2);  // after the record: the second stream need not wait for it
  cudaStreamWaitEvent(second, recorded, 0);
  store<<<1, 1, 0, second>>>(&flags[2], 8);
  expect("the waiting stream is held by the event", cudaStreamQuery(second), cudaErrorNotReady);
  expect("so its kernel has not run", flags[2], 7);
  flags[7] = 1;
  expect("released: the event happened", cudaEventSynchronize(recorded), cudaSuccess);
  expect("the second stream finishes while the first still waits", cudaStreamSynchronize(second), cudaSuccess);
  expect("its kernel ran", flags[2], 8);
  expect("the first stream still waits", cudaStreamQuery(first), cudaErrorNotReady);
  flags[7] = 2;
  expect("all done", cudaDeviceSynchronize(), cudaSuccess);

  cudaEventDestroy(recorded);
  for (cudaStream_t s : {first, second, blocking, nonblocking}) cudaStreamDestroy(s);
  cudaFree(device_flag);
  cudaFreeHost(pinned);
  cudaFreeHost(flags);
  std::printf("stream overlap: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
