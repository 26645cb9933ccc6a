// Memory held while grids of more and more 1024-thread blocks run: cusim
// keeps only the resident blocks' fibers and stacks (a worker holds one
// block at a time by default), so the peak must not grow with the grid.
// Every thread waits at a __syncthreads, so each of a block's 1024 threads
// needs a fiber of its own at once: the worst case for memory.
//
//   bench_memory [--workers N] [--quick] [--full]
//
//   --full  also runs the grid of issue 11: 2^20 blocks of 1024 threads
//           (about a minute per worker-core on a 2.6 GHz machine)
//
// For each grid it prints the process's peak resident memory (getrusage)
// and what the grids added to the peak before the first launch, divided by
// the threads resident at once (workers x resident blocks x 1024). The
// check is that every thread ran (each adds 1 to its block's count) and
// that the peak of the largest grid stays within 10% of the smallest's
// (plus one worker's resident threads: see below).
#include "bench_common.hpp"

#include <sys/resource.h>

#include <string>

namespace {

constexpr unsigned int threads_per_block = 1024;

__global__ void wait_once(unsigned int* ran) {
  __shared__ unsigned int arrived;
  if (threadIdx.x == 0) arrived = 0;
  __syncthreads();
  atomicAdd(&arrived, 1u);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(ran, arrived);
}

double peak_resident_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss);  // KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  bool full = false;
  std::vector<char*> passed;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) full = true; else passed.push_back(argv[i]);
  }
  const bench_options o = read_bench_options(static_cast<int>(passed.size()), passed.data());
  std::printf("# peak memory: cusim, %u worker(s)\n", o.workers);
#ifdef __CUSIM__
  const unsigned int resident_threads = cusim::worker_count() * cusim::resident_blocks_per_worker() * threads_per_block;
#else
  const unsigned int resident_threads = threads_per_block;  // not meaningful on a GPU
#endif
  std::vector<unsigned int> grids = o.quick ? std::vector<unsigned int>{16, 64} : std::vector<unsigned int>{256, 4096, 65536};
  if (full) grids.push_back(1u << 20);
  unsigned int* ran = device_array<unsigned int>(1);
  const double before = peak_resident_kib();
  std::printf("# %-47s %10s %18s  %s\n", "grid of 1024-thread blocks", "peak_MiB", "KiB/resident_thread", "check");
  double first_peak = 0, last_peak = 0;
  bool all_ran = true;
  for (unsigned int blocks : grids) {
    *ran = 0;
    wait_once<<<blocks, threads_per_block>>>(ran);
    finish_launch();
    const bool agree = *ran == static_cast<unsigned long long>(blocks) * threads_per_block;
    all_ran = all_ran && agree;
    const double peak = peak_resident_kib();
    if (first_peak == 0) first_peak = peak;
    last_peak = peak;
    const std::string name = "blocks: " + std::to_string(blocks);
    std::printf("%-49s %10.1f %18.2f  %s\n", name.c_str(), peak / 1024, (peak - before) / resident_threads,
                agree ? "agree" : "DIFFER");
  }
  // A helper worker may sit out a small grid (it joins only if it wakes up
  // before worker 0 has run every block) and bring its own fibers to a
  // later one: allow one worker's resident threads at 16 KiB each on top
  // (each touches about 5 KiB of its stack and fiber; measured up to 10).
  // Memory that grew with the grid would be hundreds of times that.
#ifdef __CUSIM__
  const double one_worker_kib = 16.0 * cusim::resident_blocks_per_worker() * threads_per_block;
#else
  const double one_worker_kib = 0;
#endif
  const bool bounded = last_peak <= first_peak * 1.1 + one_worker_kib;
  std::printf("peak memory %s with the grid's size (%.1f MiB, then %.1f MiB)\n",
              bounded ? "does not grow" : "GROWS", first_peak / 1024, last_peak / 1024);
  BENCH_CHECK(cudaFree(ran));
  return all_ran && bounded ? 0 : 1;
}
