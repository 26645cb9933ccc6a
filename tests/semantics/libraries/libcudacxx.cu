// libcu++ in kernels: cuda::barrier (tokens, completion, drop, memcpy_async),
// cuda::pipeline of one thread and of a block (with and without roles), the
// pipeline primitives, cuda::atomic/atomic_ref, and cuda::std utilities.
// Prints PASSED when every result matches; diff.libcudacxx compares the
// output with an H100's.
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/array>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda_pipeline.h>
#include <cstdio>

#include "expect.h"

namespace cg = cooperative_groups;

constexpr int threads = 128;
constexpr int phases = 5;

// Counts the phases a barrier completes, in the thread that ends each.
struct count_phases {
  int* counter;
  __device__ void operator()() const noexcept { ++*counter; }
};

// Each phase, every thread adds its value to a shared slot; after the wait
// each reads the total the phase made. Thread 0's completion counts phases.
__global__ void barrier_phases(int* totals, int* completed) {
  __shared__ cuda::barrier<cuda::thread_scope_block, count_phases> bar;
  __shared__ int sums[phases];
  __shared__ int phase_count;
  if (threadIdx.x == 0) {
    phase_count = 0;
    for (int p = 0; p < phases; ++p) sums[p] = 0;
    init(&bar, blockDim.x, count_phases{&phase_count});
  }
  __syncthreads();
  for (int p = 0; p < phases; ++p) {
    atomicAdd(&sums[p], static_cast<int>(threadIdx.x) * (p + 1));
    auto token = bar.arrive();
    bar.wait(std::move(token));
    if (sums[p] != threads * (threads - 1) / 2 * (p + 1)) totals[blockIdx.x] = -1 - p;
  }
  if (threadIdx.x == 0 && totals[blockIdx.x] == 0) totals[blockIdx.x] = sums[phases - 1];
  if (threadIdx.x == 0) completed[blockIdx.x] = phase_count;
}

// Half the threads leave after the first phase; the others go on alone.
__global__ void barrier_drop(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int arrivals;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    arrivals = 0;
  }
  __syncthreads();
  atomicAdd(&arrivals, 1);
  if (threadIdx.x % 2 == 1) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  const int first = arrivals;
  bar.arrive_and_wait();  // only the even threads are expected now
  atomicAdd(&arrivals, 1);
  bar.arrive_and_wait();
  if (threadIdx.x == 0) out[0] = first * 1000 + arrivals;
}

// memcpy_async of float4s into shared memory, completing on a barrier.
__global__ void copy_with_barrier(const float* in, float* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float tile[threads * 4];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const float* src = in + blockIdx.x * threads * 4;
  cuda::memcpy_async(&tile[threadIdx.x * 4], &src[threadIdx.x * 4], cuda::aligned_size_t<16>(sizeof(float4)), bar);
  bar.arrive_and_wait();
  // Then the whole block copies the tile back, shared among its threads.
  auto block = cg::this_thread_block();
  cuda::memcpy_async(block, out + blockIdx.x * threads * 4, &tile[0], sizeof(tile), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * threads * 4 + threadIdx.x] += tile[(threadIdx.x + 1) % (threads * 4)];
}

// A thread's own pipeline of `stages` stages, as cuda-samples' matrix
// multiplies use it: each thread sums its elements of `in`.
template <int stages>
__global__ void thread_pipeline(const int* in, int n, int* out) {
  __shared__ int ring[stages][threads];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<alignof(int)>(sizeof(int));
  int sum = 0, fetched = 0;
  for (int chunk = 0; chunk < n / threads; ++chunk) {
    for (; fetched < n / threads && fetched < chunk + stages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(&ring[fetched % stages][threadIdx.x], &in[fetched * threads + threadIdx.x], shape, pipe);
      pipe.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<stages - 1>(pipe);
    pipe.consumer_wait();
    sum += ring[chunk % stages][threadIdx.x];
    pipe.consumer_release();
  }
  out[threadIdx.x] = sum;
}

// A block's pipeline: the last warp produces (copies rows of `in` into a
// ring of stages), the others consume (each sums its column of each row).
template <int stages>
__global__ void block_pipeline(const int* in, int rows, int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  __shared__ int ring[stages][threads];
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x >= blockDim.x - 32;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  int sum = 0;
  for (int row = 0; row < rows; ++row) {
    const int slot = row % stages;
    if (producer) {
      pipe.producer_acquire();
      for (int i = threadIdx.x - (blockDim.x - 32); i < threads; i += 32) {
        cuda::memcpy_async(&ring[slot][i], &in[row * threads + i], cuda::aligned_size_t<4>(sizeof(int)), pipe);
      }
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      for (int i = threadIdx.x; i < threads; i += blockDim.x - 32) sum += ring[slot][i];
      pipe.consumer_release();
    }
  }
  if (!producer) atomicAdd(out, sum);
}

// Every thread both produces and consumes: the block copies a row together
// (memcpy_async of the group) and then reads it.
__global__ void shared_pipeline(const int* in, int rows, int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ int ring[2][threads];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int sum = 0;
  for (int row = 0; row < rows; ++row) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, &ring[row % 2][0], &in[row * threads], sizeof(int) * threads, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    sum += ring[row % 2][(threadIdx.x + row) % threads];
    pipe.consumer_release();
  }
  atomicAdd(out, sum);
}

// The primitives: 16 bytes copied, the last 4 zero-filled.
__global__ void primitives(const int* in, int* out) {
  __shared__ alignas(16) int s[4];
  __pipeline_memcpy_async(s, in, 16, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[0] = s[0] + 10 * s[1] + 100 * s[2] + 1000 * s[3];
}

__device__ cuda::atomic<int, cuda::thread_scope_device> ticket;
__device__ int flag;
__device__ cuda::std::atomic<unsigned> word{5u};

// Scoped atomics: a grid-wide counter, min and max, and one thread waiting
// for another's flag (it must let that thread run).
__global__ void atomics(int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> counter(out[0]);
  counter.fetch_add(1);
  cuda::atomic_ref<int, cuda::thread_scope_device>(out[1]).fetch_min(static_cast<int>(threadIdx.x + blockIdx.x * 7) - 50);
  cuda::atomic_ref<int, cuda::thread_scope_device>(out[2]).fetch_max(static_cast<int>(threadIdx.x * blockIdx.x));
  ticket.fetch_add(2, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    f.wait(0);  // until thread 1 stores
    out[3] = f.load(cuda::std::memory_order_acquire);
  }
  if (blockIdx.x == 0 && threadIdx.x == 1) f.store(42, cuda::std::memory_order_release);
  if (blockIdx.x == 0 && threadIdx.x == 2) {
    word += 3u;  // (atomics on a thread's own stack are undefined on a GPU: local memory)
    const unsigned before = word.exchange(1u);
    out[4] = static_cast<int>(before + word.load());
  }
}

__global__ void std_utilities(int* out) {
  cuda::std::array<int, 3> a{1, 2, 3};
  static_assert(cuda::std::is_same_v<cuda::std::remove_cv_t<const int>, int>);
  out[0] = cuda::std::identity{}(a[2]) + cuda::std::numeric_limits<short>::max();
}

template <class T>
T* device_array(int n, T value = T()) {
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  T* h = new T[n];
  for (int i = 0; i < n; ++i) h[i] = value;
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  delete[] h;
  return d;
}

int main() {
  expectations expected;
  auto check = [&](const char* what, long long got, long long want) { expected.check(what, got, want); };
  int h[8];

  int* totals = device_array<int>(2);
  int* completed = device_array<int>(2);
  barrier_phases<<<2, threads>>>(totals, completed);
  cudaMemcpy(h, totals, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  check("barrier phases, last total", h[0] + h[1], 2LL * threads * (threads - 1) / 2 * phases);
  cudaMemcpy(h, completed, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  check("barrier phases completed", h[0] + h[1], 2 * phases);

  int* dropped = device_array<int>(1);
  barrier_drop<<<1, threads>>>(dropped);
  cudaMemcpy(h, dropped, sizeof(int), cudaMemcpyDeviceToHost);
  check("arrive_and_drop", h[0], threads * 1000 + threads + threads / 2);

  const int copied = 2 * threads * 4;
  float* hin = new float[copied];
  for (int i = 0; i < copied; ++i) hin[i] = static_cast<float>(i % 1000);
  float* din = device_array<float>(copied);
  float* dout = device_array<float>(copied);
  cudaMemcpy(din, hin, copied * sizeof(float), cudaMemcpyHostToDevice);
  copy_with_barrier<<<2, threads>>>(din, dout);
  float* hout = new float[copied];
  cudaMemcpy(hout, dout, copied * sizeof(float), cudaMemcpyDeviceToHost);
  long long copy_sum = 0;
  for (int i = 0; i < copied; ++i) copy_sum += static_cast<long long>(hout[i]);
  long long copy_want = 0;
  for (int i = 0; i < copied; ++i) copy_want += static_cast<long long>(hin[i]);
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < threads; ++t) copy_want += static_cast<long long>(hin[b * threads * 4 + (t + 1) % (threads * 4)]);
  }
  check("memcpy_async with a barrier", copy_sum, copy_want);
  delete[] hin;
  delete[] hout;

  const int n = threads * 10;
  int* hn = new int[n];
  long long column0 = 0, all = 0;
  for (int i = 0; i < n; ++i) {
    hn[i] = (i * 37) % 101;
    if (i % threads == 0) column0 += hn[i];
    all += hn[i];
  }
  int* dn = device_array<int>(n);
  cudaMemcpy(dn, hn, n * sizeof(int), cudaMemcpyHostToDevice);
  int* sums = device_array<int>(threads);
  thread_pipeline<3><<<1, threads>>>(dn, n, sums);
  cudaMemcpy(h, sums, sizeof(int), cudaMemcpyDeviceToHost);
  check("thread pipeline, thread 0", h[0], column0);

  int* total = device_array<int>(1);
  block_pipeline<2><<<1, threads>>>(dn, n / threads, total);
  cudaMemcpy(h, total, sizeof(int), cudaMemcpyDeviceToHost);
  check("block pipeline with roles", h[0], all);

  cudaMemset(total, 0, sizeof(int));
  shared_pipeline<<<1, threads>>>(dn, n / threads, total);
  cudaMemcpy(h, total, sizeof(int), cudaMemcpyDeviceToHost);
  check("block pipeline without roles", h[0], all);
  delete[] hn;

  int* prim = device_array<int>(4, 7);
  primitives<<<1, 1>>>(prim, prim);
  cudaMemcpy(h, prim, sizeof(int), cudaMemcpyDeviceToHost);
  check("__pipeline_memcpy_async with zfill", h[0], 777);

  int* at = device_array<int>(5);
  const int init_values[5] = {0, 1 << 30, -(1 << 30), 0, 0};
  cudaMemcpy(at, init_values, sizeof(init_values), cudaMemcpyHostToDevice);
  atomics<<<4, 64>>>(at);
  cudaMemcpy(h, at, 5 * sizeof(int), cudaMemcpyDeviceToHost);
  check("atomic_ref counter", h[0], 256);
  check("fetch_min", h[1], -50);
  check("fetch_max", h[2], 63 * 3);
  check("wait for another thread's store", h[3], 42);
  check("cuda::std::atomic", h[4], 9);
  int tickets = 0;
  cudaMemcpyFromSymbol(&tickets, ticket, sizeof(int));
  check("cuda::atomic in __device__ memory", tickets, 512);

  std_utilities<<<1, 1>>>(at);
  cudaMemcpy(h, at, sizeof(int), cudaMemcpyDeviceToHost);
  check("cuda::std utilities", h[0], 3 + 32767);

  const cudaError_t status = cudaDeviceSynchronize();
  check("errors", status, cudaSuccess);
  return expected.passed();
}
