// 150 — streams: copies and kernels of different chunks in flight at once.
//
// A GPU has copy engines beside its multiprocessors, so copying one piece of
// data to the device while a kernel works on another, and copying a third
// back, can all happen at once. Work in one stream runs in order; work in
// different streams may overlap. So the array is cut into chunks, and each
// chunk gets its own stream: copy in (cudaMemcpyAsync host to device),
// compute, copy out (device to host). The program runs the same chunks twice,
// all in one stream and then one stream per chunk, times both with events,
// and checks both results against the host.
//
// What this needs:
// * pinned host memory (cudaMallocHost). A copy from or to ordinary
//   (pageable) memory goes through a staging buffer, and cudaMemcpyAsync
//   returns only once that is done: the host would wait for each copy.
// * cudaMemcpyAsync and a launch with a stream (<<<grid, block, 0, s>>>)
//   return at once: the host only queues the work. cudaStreamQuery(s) tells,
//   without waiting, whether a stream's work is done (cudaSuccess) or not
//   (cudaErrorNotReady).
// * events. cudaEventRecord(e, s) marks a point in stream s; with
//   cudaEventElapsedTime two of them time the work between. Streams made by
//   cudaStreamCreate are blocking streams: the legacy default stream (0) waits
//   for their work and they for its, so events recorded in stream 0 before
//   and after bracket every chunk's work.
// * cudaStreamWaitEvent(a, e): work queued in stream a after this call waits
//   until event e, recorded in another stream, has happened. Here a last
//   kernel in the first stream sums the whole array: each chunk's stream
//   records an event after its kernel, and the first stream waits for all of
//   them before the sum. Without the waits, on a GPU the sum could read
//   chunks whose kernels have not run yet.
// cusim, too, runs the work of different streams at once (each piece on a
// device thread of its own), so both on a GPU and on a CPU with cores to
// spare the chunks' copies and kernels overlap; with CUSIM_WORKERS equal to
// the cores, one stream already keeps them all busy.
// Build: cusim-cc overlap.cu -o overlap (or nvcc).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int n = 1 << 20;
const int chunks = 4;
const int chunk_n = n / chunks;
const int threads_per_block = 256;
const float factor = 2.0f;  // the a of y = a*x + sin(x)

// y = a*x + sin(x), one element per thread.
__global__ void axpy_sin(const float* x, float* y, int count, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) y[i] = a * x[i] + sinf(x[i]);
}

// One block: the sum of y[0..count), in double, into *sum.
__global__ void sum_all(const float* y, int count, double* sum) {
  __shared__ double partial[threads_per_block];
  const int t = threadIdx.x;
  double s = 0.0;
  for (int i = t; i < count; i += threads_per_block) s += y[i];
  partial[t] = s;
  __syncthreads();
  for (int half = threads_per_block / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) *sum = partial[0];
}

// Queues the whole job: chunk c goes to streams[c % stream_count]; then the
// first stream waits for every chunk's kernel and sums the array. Times it
// with events in the legacy default stream and returns once it is done.
int run(cudaStream_t* streams, int stream_count, const float* host_x, float* host_y, double* host_sum, float* dev_x,
        float* dev_y, double* dev_sum, float* ms, cudaError_t* query_before, cudaError_t* query_after) {
  cudaEvent_t start, stop, kernel_done[chunks];
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int c = 0; c < chunks; ++c) CHECK(cudaEventCreateWithFlags(&kernel_done[c], cudaEventDisableTiming));

  CHECK(cudaEventRecord(start, 0));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % stream_count];
    const int offset = c * chunk_n;
    const size_t bytes = chunk_n * sizeof(float);
    CHECK(cudaMemcpyAsync(dev_x + offset, host_x + offset, bytes, cudaMemcpyHostToDevice, s));
    axpy_sin<<<(chunk_n + threads_per_block - 1) / threads_per_block, threads_per_block, 0, s>>>(
        dev_x + offset, dev_y + offset, chunk_n, factor);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(kernel_done[c], s));  // this chunk of y is computed
    CHECK(cudaMemcpyAsync(host_y + offset, dev_y + offset, bytes, cudaMemcpyDeviceToHost, s));
  }
  // The sum needs every chunk: the first stream waits for each chunk's event.
  for (int c = 0; c < chunks; ++c) CHECK(cudaStreamWaitEvent(streams[0], kernel_done[c], 0));
  sum_all<<<1, threads_per_block, 0, streams[0]>>>(dev_y, n, dev_sum);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(host_sum, dev_sum, sizeof(double), cudaMemcpyDeviceToHost, streams[0]));
  CHECK(cudaEventRecord(stop, 0));  // after all of the streams' work

  // Everything is queued; the host is free. Has the last chunk's stream finished?
  *query_before = cudaStreamQuery(streams[stream_count - 1]);
  CHECK(cudaEventSynchronize(stop));  // the host waits for the stop event
  *query_after = cudaStreamQuery(streams[stream_count - 1]);
  CHECK(cudaEventElapsedTime(ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (int c = 0; c < chunks; ++c) CHECK(cudaEventDestroy(kernel_done[c]));
  return 0;
}

// Compares y with the host's a*x + sin(x) (float tolerance), and the device's
// sum with the sum of the y it copied back (the sum saw every chunk's y).
bool check(const float* x, const float* y, double sum) {
  int wrong = 0;
  double sum_of_y = 0.0;
  for (int i = 0; i < n; ++i) {
    const float expected = factor * x[i] + std::sin(x[i]);
    if (std::fabs(y[i] - expected) > 1e-5f * (1.0f + std::fabs(expected))) {
      if (++wrong <= 5) std::printf("  y[%d] = %.7g, expected %.7g\n", i, y[i], expected);
    }
    sum_of_y += y[i];
  }
  const bool sum_ok = std::fabs(sum - sum_of_y) <= 1e-9 * std::fabs(sum_of_y);
  std::printf("  %d of %d elements differ from the host's; sum on the device %.3f, %s the copied-back y's %.3f\n",
              wrong, n, sum, sum_ok ? "equal to" : "DIFFERENT from", sum_of_y);
  return wrong == 0 && sum_ok;
}

int main() {
  float *host_x, *host_y_one, *host_y_many, *dev_x, *dev_y;
  double *host_sum, *dev_sum;
  CHECK(cudaMallocHost(&host_x, n * sizeof(float)));  // pinned: async copies can overlap
  CHECK(cudaMallocHost(&host_y_one, n * sizeof(float)));
  CHECK(cudaMallocHost(&host_y_many, n * sizeof(float)));
  CHECK(cudaMallocHost(&host_sum, 2 * sizeof(double)));
  CHECK(cudaMalloc(&dev_x, n * sizeof(float)));
  CHECK(cudaMalloc(&dev_y, n * sizeof(float)));
  CHECK(cudaMalloc(&dev_sum, sizeof(double)));
  for (int i = 0; i < n; ++i) host_x[i] = float(i % 4096) / 1024.0f;  // 0 to 4

  cudaStream_t streams[chunks];
  for (int c = 0; c < chunks; ++c) CHECK(cudaStreamCreate(&streams[c]));

  // A first launch pays one-time setup on a GPU: keep it out of the timings.
  axpy_sin<<<1, threads_per_block>>>(dev_x, dev_y, 0, factor);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float ms_one = 0.0f, ms_many = 0.0f;
  cudaError_t before_one, after_one, before_many, after_many;
  std::printf("%d floats in %d chunks: copy in, y = %.0f*x + sin(x), copy out; then the sum of y\n", n, chunks, factor);
  CHECK(cudaMemset(dev_y, 0, n * sizeof(float)));  // no result left over from another run
  if (run(streams, 1, host_x, host_y_one, &host_sum[0], dev_x, dev_y, dev_sum, &ms_one, &before_one, &after_one))
    return 1;
  CHECK(cudaMemset(dev_y, 0, n * sizeof(float)));
  if (run(streams, chunks, host_x, host_y_many, &host_sum[1], dev_x, dev_y, dev_sum, &ms_many, &before_many,
          &after_many))
    return 1;

  std::printf("all chunks in one stream: %.3f ms (cudaStreamQuery right after queueing: %s, after the stop event: "
              "%s)\n",
              ms_one, cudaGetErrorName(before_one), cudaGetErrorName(after_one));
  const bool ok_one = check(host_x, host_y_one, host_sum[0]);
  std::printf("one stream per chunk: %.3f ms (cudaStreamQuery of the last stream right after queueing: %s, after the "
              "stop event: %s)\n",
              ms_many, cudaGetErrorName(before_many), cudaGetErrorName(after_many));
  const bool ok_many = check(host_x, host_y_many, host_sum[1]);
  std::printf("On a GPU the chunks' copies and kernels can overlap; compare the two times there.\n");

  for (int c = 0; c < chunks; ++c) CHECK(cudaStreamDestroy(streams[c]));
  CHECK(cudaFreeHost(host_x));
  CHECK(cudaFreeHost(host_y_one));
  CHECK(cudaFreeHost(host_y_many));
  CHECK(cudaFreeHost(host_sum));
  CHECK(cudaFree(dev_x));
  CHECK(cudaFree(dev_y));
  CHECK(cudaFree(dev_sum));
  const bool ok = ok_one && ok_many;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
