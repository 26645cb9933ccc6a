// Streams run asynchronously to the host. A kernel that waits for a flag the
// host sets shows it: while it waits, the host goes on, its stream and the
// events after it are not ready, work queued behind it (in its stream, in
// the legacy default stream's blocking streams) has not run, and an async
// copy from pinned memory has returned without copying.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wait_for_host(volatile int* flag) {
  while (*flag == 0) __nanosleep(1000);
}
__global__ void mark(int* slot, int value) { *slot = value; }

void CUDART_CB append(void* data) {
  int* log = static_cast<int*>(data);
  log[++log[0]] = 7;
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  int* flag;
  int* marks;
  int* pinned;
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  cudaMallocManaged(&marks, 4 * sizeof(int));
  cudaMallocHost(&pinned, 4 * sizeof(int));
  *flag = 0;
  for (int i = 0; i < 4; ++i) marks[i] = pinned[i] = 0;
  pinned[0] = 99;
  cudaStream_t blocking;
  cudaStreamCreate(&blocking);
  cudaEvent_t after;
  cudaEventCreate(&after);

  // The kernel waits; the host goes on.
  wait_for_host<<<1, 1>>>(flag);
  expect("the launch returns at once", cudaGetLastError(), cudaSuccess);
  expect("the default stream is busy", cudaStreamQuery(0), cudaErrorNotReady);
  cudaEventRecord(after, 0);
  expect("an event after the kernel has not happened", cudaEventQuery(after), cudaErrorNotReady);
  // A blocking stream's work waits for the legacy default stream's.
  mark<<<1, 1, 0, blocking>>>(&marks[0], 1);
  expect("a blocking stream waits behind it", cudaStreamQuery(blocking), cudaErrorNotReady);
  // An async copy from pinned memory is queued, not done.
  expect("async copy", cudaMemcpyAsync(&marks[1], pinned, sizeof(int), cudaMemcpyHostToDevice, 0), cudaSuccess);
  int log[8] = {0};
  expect("host function", cudaLaunchHostFunc(0, append, log), cudaSuccess);
  expect("nothing behind the kernel has run: blocking stream", marks[0], 0);
  expect("nothing behind the kernel has run: copy", marks[1], 0);
  expect("nothing behind the kernel has run: host function", log[0], 0);

  *flag = 1;  // release the kernel
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("the default stream is idle", cudaStreamQuery(0), cudaSuccess);
  expect("the event has happened", cudaEventQuery(after), cudaSuccess);
  expect("blocking stream's kernel ran", marks[0], 1);
  expect("the copy ran", marks[1], 99);
  expect("the host function ran once", log[0], 1);
  expect("the host function's value", log[1], 7);

  cudaEventDestroy(after);
  cudaStreamDestroy(blocking);
  cudaFreeHost(flag);
  cudaFreeHost(pinned);
  cudaFree(marks);
  std::printf("asynchronous streams: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
