// Host streams and events: creation flags and priorities, work in a stream
// in order, events that time it, callbacks, and the errors for bad handles.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

void CUDART_CB note_callback(cudaStream_t, cudaError_t status, void* data) {
  *static_cast<int*>(data) = 100 + int(status);
}
void CUDART_CB note_host_fn(void* data) { *static_cast<int*>(data) += 1; }

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  const int n = 1 << 12;
  float* host;
  float* device;
  expect("pinned buffer", cudaMallocHost(&host, n * sizeof(float)), cudaSuccess);
  expect("device buffer", cudaMalloc(&device, n * sizeof(float)), cudaSuccess);
  for (int i = 0; i < n; ++i) host[i] = float(i);

  cudaStream_t stream, nonblocking, urgent;
  expect("create", cudaStreamCreate(&stream), cudaSuccess);
  expect("create non-blocking", cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking), cudaSuccess);
  int least = 0, greatest = 0;
  expect("priority range", cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
  std::printf("stream priorities: least %d, greatest %d\n", least, greatest);
  expect("create with priority", cudaStreamCreateWithPriority(&urgent, cudaStreamNonBlocking, greatest - 10), cudaSuccess);
  int priority = 1;
  unsigned int flags = 7;
  expect("get priority", cudaStreamGetPriority(urgent, &priority), cudaSuccess);
  expect("priority clamped to the greatest", priority, greatest);
  expect("get flags", cudaStreamGetFlags(nonblocking, &flags), cudaSuccess);
  expect("non-blocking flag", flags, cudaStreamNonBlocking);
  expect("bad stream flags", cudaStreamCreateWithFlags(&urgent, 4), cudaErrorInvalidValue);
  cudaGetLastError();

  cudaEvent_t start, stop, untimed;
  expect("event", cudaEventCreate(&start), cudaSuccess);
  expect("event", cudaEventCreate(&stop), cudaSuccess);
  expect("untimed event", cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
  float ms = -1;
  expect("elapsed before recording", cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  expect("query before recording", cudaEventQuery(start), cudaSuccess);

  // Copy in, scale twice, copy out: one stream keeps them in order.
  expect("record start", cudaEventRecord(start, stream), cudaSuccess);
  expect("copy in", cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream), cudaSuccess);
  scale<<<n / 256, 256, 0, stream>>>(device, n, 2.0f);
  scale<<<n / 256, 256, 0, stream>>>(device, n, 3.0f);
  expect("copy out", cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream), cudaSuccess);
  expect("record stop", cudaEventRecord(stop, stream), cudaSuccess);
  int callback_saw = 0, host_fn_calls = 0;
  expect("callback", cudaStreamAddCallback(stream, note_callback, &callback_saw, 0), cudaSuccess);
  expect("host function", cudaLaunchHostFunc(stream, note_host_fn, &host_fn_calls), cudaSuccess);
  expect("synchronize the stream", cudaStreamSynchronize(stream), cudaSuccess);
  expect("stop event done", cudaEventQuery(stop), cudaSuccess);
  expect("stop event synchronize", cudaEventSynchronize(stop), cudaSuccess);
  for (int i = 0; i < n; ++i) expect("copied, scaled twice, copied back in order", host[i], 6 * i);
  expect("callback ran with cudaSuccess", callback_saw, 100);
  expect("host function ran once", host_fn_calls, 1);
  expect("elapsed", cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  expect("elapsed time is not negative", ms >= 0, 1);
  expect("an untimed event cannot time", cudaEventElapsedTime(&ms, start, untimed), cudaErrorInvalidResourceHandle);
  cudaGetLastError();

  // One stream waits for an event recorded in another.
  expect("record in stream", cudaEventRecord(untimed, stream), cudaSuccess);
  expect("wait in another", cudaStreamWaitEvent(nonblocking, untimed, 0), cudaSuccess);
  expect("set after the wait", cudaMemsetAsync(device, 0, n * sizeof(float), nonblocking), cudaSuccess);
  expect("synchronize", cudaDeviceSynchronize(), cudaSuccess);
  expect("query the stream", cudaStreamQuery(nonblocking), cudaSuccess);

  // Handles that are gone.
  expect("destroy", cudaStreamDestroy(nonblocking), cudaSuccess);
  expect("destroy", cudaEventDestroy(untimed), cudaSuccess);
  expect("destroy the NULL stream", cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  expect("no last error left", cudaGetLastError(), cudaSuccess);

  cudaStreamDestroy(stream);
  cudaStreamDestroy(urgent);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(device);
  cudaFreeHost(host);
  std::printf("host streams and events: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
