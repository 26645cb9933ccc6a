#include <vector>

#include "../engine_shape.hpp"

namespace {

// Each thread writes its slot, waits, then reads its neighbour's: without the
// barrier the neighbour's write may not have happened yet.
void rotate_through_shared(int* out) {
  CUSIM_SHARED(int[256], slots);
  const unsigned int t = threadIdx.x;
  slots[t] = int(t * 3 + blockIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = slots[(t + 1) % blockDim.x];
}

// Threads of the upper half exit early; the rest meet at a barrier twice.
void barrier_after_early_exit(int* out) {
  CUSIM_SHARED(int[128], slots);
  const unsigned int t = threadIdx.x;
  if (t >= 64) return;
  slots[t] = int(t);
  __syncthreads();
  const int neighbour = slots[63 - t];
  __syncthreads();
  out[t] = neighbour;
}

// sm_70+: a barrier inside a branch counts arrivals from any call site. The
// classic bug of the dot product with __syncthreads moved into the `if`
// still completes and gives the right sum on an H100.
void reduce_with_barrier_in_branch(const int* in, int* out) {
  CUSIM_SHARED(int[256], cache);
  const unsigned int t = threadIdx.x;
  cache[t] = in[t];
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) {
      cache[t] += cache[t + half];
      __syncthreads();
    }
  }
  if (t == 0) *out = cache[0];
}

void vote_counts(int* out) {
  const unsigned int t = threadIdx.x;
  const int count = __syncthreads_count(t % 3 == 0);
  const int all_small = __syncthreads_and(t < 1000);
  const int none_big = __syncthreads_and(t < 100);
  const int any_zero = __syncthreads_or(t == 0);
  const int any_huge = __syncthreads_or(t > 5000);
  if (t == 0) {
    out[0] = count;
    out[1] = all_small;
    out[2] = none_big;
    out[3] = any_zero;
    out[4] = any_huge;
  }
}

// Each thread records where its local variable lives: one fiber per waiting
// thread shows as distinct stacks, loop fibers as one reused stack. `wait`:
// 1 a barrier, 2 one atomic per thread (on out[blockDim.x]).
void stack_address(std::uintptr_t* out, int wait) {
  volatile int local = 0;
  if (wait == 1) __syncthreads();
  if (wait == 2) atomicAdd(reinterpret_cast<unsigned long long*>(out + blockDim.x), 1ull);
  out[threadIdx.x] = reinterpret_cast<std::uintptr_t>(&local);
}

}  // namespace

TEST_CASE("barrier: writes before __syncthreads are visible after it", "[sched][barrier][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> out(8 * 256);
  REQUIRE(cusim::launch(rotate_through_shared, 8, 256)(out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  for (unsigned int b = 0; b < 8; ++b)
    for (unsigned int t = 0; t < 256; ++t) CHECK(out[b * 256 + t] == int(((t + 1) % 256) * 3 + b));
}

TEST_CASE("barrier: threads that exited do not hold the barrier", "[sched][barrier][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> out(64);
  REQUIRE(cusim::launch(barrier_after_early_exit, 1, 128)(out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (int t = 0; t < 64; ++t) CHECK(out[t] == 63 - t);
}

TEST_CASE("barrier: a __syncthreads inside a divergent branch completes, as on sm_70+", "[sched][barrier][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> in(256), out(1);
  int expected = 0;
  for (int i = 0; i < 256; ++i) expected += in[i] = i % 7 + 1;
  REQUIRE(cusim::launch(reduce_with_barrier_in_branch, 1, 256)(in.data, out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == expected);
}

TEST_CASE("barrier: __syncthreads_count, _and and _or reduce the predicate over the block", "[sched][barrier][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> out(5);
  REQUIRE(cusim::launch(vote_counts, 1, 300)(out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(out[0] == 100);  // 0, 3, ..., 297
  CHECK(out[1] == 1);
  CHECK(out[2] == 0);
  CHECK(out[3] == 1);
  CHECK(out[4] == 0);
}

TEST_CASE("barrier: a barrier-free kernel runs a block's threads on one fiber, waiting threads get one each",
          "[sched][barrier][fiber][quick]") {
  engine_shape shape(1, 1);
  device_buffer<std::uintptr_t> addresses(256);
  REQUIRE(cusim::launch(stack_address, 1, 256)(addresses.data, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  std::vector<std::uintptr_t> seen(addresses.data, addresses.data + 256);
  std::sort(seen.begin(), seen.end());
  CHECK(std::unique(seen.begin(), seen.end()) - seen.begin() == 1);

  REQUIRE(cusim::launch(stack_address, 1, 256)(addresses.data, 1) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  seen.assign(addresses.data, addresses.data + 256);
  std::sort(seen.begin(), seen.end());
  CHECK(std::unique(seen.begin(), seen.end()) - seen.begin() == 256);
}

TEST_CASE("progress: threads that make one atomic each wait for nothing: their block keeps one fiber",
          "[sched][progress][fiber][quick]") {
  // A spin point comes every 64 atomics of one thread (progress.hpp), not
  // of the block, whose 256 threads here would make four.
  engine_shape shape(1, 1);
  device_buffer<std::uintptr_t> addresses(257);
  addresses[256] = 0;
  REQUIRE(cusim::launch(stack_address, 1, 256)(addresses.data, 2) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(addresses[256] == 256);
  std::vector<std::uintptr_t> seen(addresses.data, addresses.data + 256);
  std::sort(seen.begin(), seen.end());
  CHECK(std::unique(seen.begin(), seen.end()) - seen.begin() == 1);
}
