// Microbenchmarks (issue 11): what the engine's basic operations cost.
//
//   empty-kernel launch     one <<<1,1>>> launch of an empty kernel, then
//                           cudaDeviceSynchronize; and back to back, one
//                           synchronisation for all of them
//   __syncthreads           per thread per barrier, in blocks of 256 and of 1024
//   __shfl_down_sync        per thread per shuffle, full warps
//   atomicAdd               per thread per atomic, all on one address
//   thread start            per thread of a kernel whose threads never wait
//   device-side launch      per <<<1,1>>> child grid launched from a kernel
//
// A per-operation cost is a kernel doing R operations per thread, minus the
// same kernel with the operation switched off, divided by threads x R. Each
// kernel's result is checked (the last column).
//   bench_micro [--workers N] [--repeat R] [--quick]
#include "bench_common.hpp"

namespace {

const unsigned full_warp = 0xffffffffu;

__global__ void empty_kernel() {}

__global__ void barrier_rounds(int rounds, bool wait, unsigned* out) {
  unsigned x = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    x += unsigned(r);
    if (wait) __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = x;
}

__global__ void shuffle_rounds(int rounds, bool shuffle, unsigned* out) {
  unsigned x = threadIdx.x;
  for (int r = 0; r < rounds; ++r) x += shuffle ? __shfl_down_sync(full_warp, x, 1) : x;
  if (threadIdx.x == 0) out[blockIdx.x] = x;
}

__global__ void atomic_rounds(int rounds, bool atomics, unsigned* counter) {
  if (!atomics) return;
  for (int r = 0; r < rounds; ++r) atomicAdd(counter, 1u);
}

__global__ void never_waits(unsigned* last, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == n - 1) *last = i;
}

// What lane 0 of a warp holds after shuffle_rounds, computed on the host.
unsigned expected_shuffle_result(int rounds) {
  unsigned lanes[32];
  for (unsigned l = 0; l < 32; ++l) lanes[l] = l;
  for (int r = 0; r < rounds; ++r)
    for (unsigned l = 0; l < 32; ++l) lanes[l] += l < 31 ? lanes[l + 1] : lanes[l];  // lane l + 1 not yet updated
  return lanes[0];
}

bool all_equal(const unsigned* values, int n, unsigned expected) {
  for (int i = 0; i < n; ++i)
    if (values[i] != expected) return false;
  return true;
}

// Nanoseconds per operation: `launch(true)` does `operations` more of them
// than `launch(false)`; each is timed to its synchronisation. The last run
// is one with the operations, whose results the caller then checks.
template <class Launch>
double cost_ns(const bench_options& o, double operations, Launch&& launch) {
  const double without = median_seconds(o.repeat, [&] {
    launch(false);
    finish_launch();
  });
  const double with = median_seconds(o.repeat, [&] {
    launch(true);
    finish_launch();
  });
  return (with - without) / operations * 1e9;
}

#if defined(__CUSIM__) || defined(__CUDACC_RDC__)  // nvcc launches from the device with -rdc=true only
__global__ void child(unsigned* counter) { atomicAdd(counter, 1u); }

// Thread 0 of each block launches `launches` children, or does their work itself.
__global__ void parent(int launches, bool launch, unsigned* counter) {
  if (threadIdx.x != 0) return;
  for (int l = 0; l < launches; ++l) {
    if (launch) {
      child<<<1, 1>>>(counter);
    } else {
      atomicAdd(counter, 1u);
    }
  }
}

bool child_launch_bench(const bench_options& o) {
  const int blocks = o.quick ? 2 : 256, launches = 4;  // below the 2048 pending launches a GPU allows
  unsigned* counter = device_array<unsigned>(1);
  const double ns = cost_ns(o, double(blocks) * launches, [&](bool launch) {
    *counter = 0;
    parent<<<blocks, 32>>>(launches, launch, counter);
  });
  const bool agree = *counter == unsigned(blocks * launches);
  BENCH_CHECK(cudaFree(counter));
  return print_micro("device-side launch <<<1,1>>>", ns / 1e3, "us per launch", agree);
}
#else
bool child_launch_bench(const bench_options&) {
  std::printf("%-49s %10s %-20s %s\n", "device-side launch <<<1,1>>>", "-", "needs -rdc=true", "agree");
  return true;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const bench_options o = read_bench_options(argc, argv);
  print_header("microbenchmarks", o);
  std::printf("%-49s %10s %-20s %s\n", "# operation", "cost", "unit", "check");
  bool ok = true;
  const int blocks = o.quick ? 2 : 64;
  unsigned* out = device_array<unsigned>(4096);

  // Empty-kernel launch: L launches each waited for, and L back to back.
  const int launches = o.quick ? 4 : 200;
  const double waited = median_seconds(o.repeat, [&] {
    for (int l = 0; l < launches; ++l) {
      empty_kernel<<<1, 1>>>();
      finish_launch();
    }
  });
  ok &= print_micro("empty kernel <<<1,1>>>, launch + synchronize", waited / launches * 1e6, "us per launch", true);
  const double queued = median_seconds(o.repeat, [&] {
    for (int l = 0; l < launches; ++l) empty_kernel<<<1, 1>>>();
    finish_launch();
  });
  ok &= print_micro("empty kernel <<<1,1>>>, back to back", queued / launches * 1e6, "us per launch", true);

  // __syncthreads at two block sizes, the same number of thread-barriers.
  const int barrier_rounds_count = o.quick ? 4 : 1000;
  for (const int threads : {256, 1024}) {
    const int barrier_blocks = std::max(1, blocks * 256 / threads);
    const double ns = cost_ns(o, double(barrier_blocks) * threads * barrier_rounds_count, [&](bool wait) {
      barrier_rounds<<<barrier_blocks, threads>>>(barrier_rounds_count, wait, out);
    });
    const unsigned expected = unsigned(barrier_rounds_count) * unsigned(barrier_rounds_count - 1) / 2;
    char name[64];
    std::snprintf(name, sizeof name, "__syncthreads, %d-thread blocks", threads);
    ok &= print_micro(name, ns, "ns per thread", all_equal(out, barrier_blocks, expected));
  }

  const int shuffle_rounds_count = o.quick ? 4 : 200;
  const double shuffle_ns = cost_ns(o, double(blocks) * 256 * shuffle_rounds_count, [&](bool shuffle) {
    shuffle_rounds<<<blocks, 256>>>(shuffle_rounds_count, shuffle, out);
  });
  ok &= print_micro("__shfl_down_sync, full warps", shuffle_ns, "ns per thread",
                    all_equal(out, blocks, expected_shuffle_result(shuffle_rounds_count)));

  const int atomic_rounds_count = o.quick ? 4 : 100;
  unsigned* counter = device_array<unsigned>(1);
  const double atomic_ns = cost_ns(o, double(blocks) * 256 * atomic_rounds_count, [&](bool atomics) {
    *counter = 0;
    atomic_rounds<<<blocks, 256>>>(atomic_rounds_count, atomics, counter);
  });
  ok &= print_micro("atomicAdd, one address", atomic_ns, "ns per thread",
                    *counter == unsigned(blocks * 256 * atomic_rounds_count));

  const unsigned start_threads = o.quick ? 1024u : 1u << 20;
  const double start = median_seconds(o.repeat, [&] {
    never_waits<<<start_threads / 256, 256>>>(out, start_threads);
    finish_launch();
  });
  ok &= print_micro("thread start, threads that never wait", start / start_threads * 1e9, "ns per thread",
                    out[0] == start_threads - 1);

  ok &= child_launch_bench(o);
  BENCH_CHECK(cudaFree(out));
  BENCH_CHECK(cudaFree(counter));
  std::printf("microbenchmarks: %s\n", ok ? "all agree" : "some DIFFER");
  return ok ? 0 : 1;
}
