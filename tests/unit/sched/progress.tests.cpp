// Atomics from every thread of many blocks on several workers, and threads
// that spin waiting for each other: the totals are exact and the spins end.
#include "../engine_shape.hpp"

namespace {

void add_everywhere(unsigned long long* sum, int* count, float* halves) {
  atomicAdd(sum, static_cast<unsigned long long>(blockIdx.x * blockDim.x + threadIdx.x));
  atomicAdd(count, 1);
  atomicAdd(halves, 0.5f);
}

// A spin lock among the threads of one block (and across blocks): each
// thread waits for the lock with atomicCAS, then updates a plain counter.
__device__ int lock_word;
void spin_locked_increment(int* counter) {
  for (bool done = false; !done;) {
    if (atomicCAS(&lock_word, 0, 1) == 0) {
      __threadfence();  // what the previous holder wrote is visible
      *counter = *counter + 1;
      __threadfence();
      atomicExch(&lock_word, 0);
      done = true;
    }
  }
}

// Thread 0 waits on a flag that the block's last thread sets: with loop
// fibers the last thread has not even started while thread 0 spins.
void wait_for_last_thread(int* flags, int* seen) {
  int* flag = &flags[blockIdx.x];
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    atomicAdd(seen, 1);
  }
  if (threadIdx.x == blockDim.x - 1) atomicExch(flag, 1);
}

// The same with __nanosleep and a volatile read in the loop.
void sleep_until_flag(int* flags, int* seen) {
  volatile int* flag = &flags[blockIdx.x];
  if (threadIdx.x == 0) {
    while (*flag == 0) __nanosleep(100);
    atomicAdd(seen, 1);
  }
  if (threadIdx.x == blockDim.x - 1) *flag = 1;
}

}  // namespace

TEST_CASE("atomics: every thread of every block on one address gives exact totals", "[sched][atomics][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<unsigned long long> sum(1);
  device_buffer<int> count(1);
  device_buffer<float> halves(1);
  sum[0] = 0;
  count[0] = 0;
  halves[0] = 0.0f;
  const unsigned int blocks = 64, threads = 256, n = blocks * threads;
  REQUIRE(cusim::launch(add_everywhere, blocks, threads)(sum.data, count.data, halves.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(sum[0] == static_cast<unsigned long long>(n) * (n - 1) / 2);
  CHECK(count[0] == int(n));
  CHECK(halves[0] == 0.5f * n);  // exact: every partial sum is a multiple of 0.5 below 2^24
}

TEST_CASE("progress: a spin lock among the threads of a block and across blocks completes",
          "[sched][atomics][progress][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> counter(1);
  counter[0] = 0;
  int zero = 0;
  REQUIRE(cudaMemcpyToSymbol(lock_word, &zero, sizeof zero) == cudaSuccess);
  REQUIRE(cusim::launch(spin_locked_increment, 8, 128)(counter.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(counter[0] == 8 * 128);
}

TEST_CASE("progress: a thread spinning on a flag lets the thread that sets it run", "[sched][progress][quick]") {
  CUSIM_ENGINE_SHAPES();
  const unsigned int blocks = 6;
  device_buffer<int> flags(blocks);
  device_buffer<int> seen(1);
  for (unsigned int b = 0; b < blocks; ++b) flags[b] = 0;
  seen[0] = 0;
  SECTION("with an atomic read") {
    REQUIRE(cusim::launch(wait_for_last_thread, blocks, 96)(flags.data, seen.data) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  }
  SECTION("with __nanosleep and a volatile read") {
    REQUIRE(cusim::launch(sleep_until_flag, blocks, 96)(flags.data, seen.data) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  }
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(seen[0] == int(blocks));
}
