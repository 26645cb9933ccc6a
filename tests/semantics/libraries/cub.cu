// CUB on cusim (Debian's libcub-dev, CUB 1.17): warp and block primitives
// in the program's own kernels, with their TempStorage in __shared__
// memory, and the device-wide algorithms with their two-phase call for
// temporary storage. Integer results are checked against the host's;
// float sums are printed bit for bit, so that diff.cub compares the order
// CUB adds them in with a GPU's. Prints PASSED when every check holds.
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "expect.h"

constexpr int block_threads = 128;
constexpr int items_per_thread = 4;
constexpr int blocks = 3;
constexpr int n = blocks * block_threads * items_per_thread;

template <class T>
T* managed(std::size_t count) {
  T* p = nullptr;
  cudaMallocManaged(&p, count * sizeof(T));
  return p;
}

// Operators of the program's own: CUB 1.17's cub::Max and cub::Inequality
// are gone from CUDA 13's CUB, where diff.cub's golden comes from.
struct larger {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct differ {
  __host__ __device__ bool operator()(int a, int b) const { return a != b; }
};

// --- Warps ---------------------------------------------------------------

// A full warp's and a 16-lane logical warp's reductions and scans.
__global__ void warp_primitives(const float* in, const int* ints, float* float_sums, int* int_max, int* exclusive,
                                int* inclusive16) {
  using reduce_t = cub::WarpReduce<float>;
  using max_t = cub::WarpReduce<int, 16>;
  using scan_t = cub::WarpScan<int>;
  using scan16_t = cub::WarpScan<int, 16>;
  constexpr int warps = block_threads / 32;
  __shared__ typename reduce_t::TempStorage reduce_storage[warps];
  __shared__ typename max_t::TempStorage max_storage[block_threads / 16];
  __shared__ typename scan_t::TempStorage scan_storage[warps];
  __shared__ typename scan16_t::TempStorage scan16_storage[block_threads / 16];
  const int warp = threadIdx.x / 32, half = threadIdx.x / 16;
  const int i = blockIdx.x * block_threads + threadIdx.x;
  const float total = reduce_t(reduce_storage[warp]).Sum(in[i]);
  if (threadIdx.x % 32 == 0) float_sums[blockIdx.x * warps + warp] = total;
  const int biggest = max_t(max_storage[half]).Reduce(ints[i], larger());
  if (threadIdx.x % 16 == 0) int_max[blockIdx.x * (block_threads / 16) + half] = biggest;
  scan_t(scan_storage[warp]).ExclusiveSum(ints[i], exclusive[i]);
  scan16_t(scan16_storage[half]).InclusiveSum(ints[i], inclusive16[i]);
}

// --- Blocks --------------------------------------------------------------

template <cub::BlockReduceAlgorithm Algorithm>
__global__ void block_reduce(const float* in, const int* ints, float* sums, int* partial_sums) {
  using reduce_t = cub::BlockReduce<float, block_threads, Algorithm>;
  using int_reduce_t = cub::BlockReduce<int, block_threads, Algorithm>;
  __shared__ typename reduce_t::TempStorage storage;
  __shared__ typename int_reduce_t::TempStorage int_storage;
  const int i = blockIdx.x * block_threads + threadIdx.x;
  const float total = reduce_t(storage).Sum(in[i]);
  // Only the first 100 threads' values count.
  const int partial = int_reduce_t(int_storage).Sum(ints[i], 100);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = total;
    partial_sums[blockIdx.x] = partial;
  }
}

template <cub::BlockScanAlgorithm Algorithm>
__global__ void block_scan(const int* in, int* out, int* aggregates) {
  using scan_t = cub::BlockScan<int, block_threads, Algorithm>;
  __shared__ typename scan_t::TempStorage storage;
  int items[items_per_thread];
  const int offset = blockIdx.x * block_threads * items_per_thread;
  cub::LoadDirectBlocked(threadIdx.x, in + offset, items);
  int aggregate;
  scan_t(storage).ExclusiveSum(items, items, aggregate);
  cub::StoreDirectBlocked(threadIdx.x, out + offset, items);
  if (threadIdx.x == 0) aggregates[blockIdx.x] = aggregate;
}

// Load transposed (striped in memory, blocked in registers), sort each
// block's keys with their values, store back through the warp transpose.
__global__ void block_load_sort_store(const int* keys_in, int* keys_out, int* values_out) {
  using load_t = cub::BlockLoad<int, block_threads, items_per_thread, cub::BLOCK_LOAD_TRANSPOSE>;
  using store_t = cub::BlockStore<int, block_threads, items_per_thread, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using sort_t = cub::BlockRadixSort<int, block_threads, items_per_thread, int>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename store_t::TempStorage store;
    typename sort_t::TempStorage sort;
  } storage;
  const int offset = blockIdx.x * block_threads * items_per_thread;
  int keys[items_per_thread], values[items_per_thread];
  load_t(storage.load).Load(keys_in + offset, keys);
  for (int k = 0; k < items_per_thread; ++k) values[k] = offset + threadIdx.x * items_per_thread + k;
  __syncthreads();
  sort_t(storage.sort).Sort(keys, values);
  __syncthreads();
  store_t(storage.store).Store(keys_out + offset, keys);
  __syncthreads();
  store_t(storage.store).Store(values_out + offset, values);
}

// Runs of about three equal values, some cut short.
__host__ __device__ int run_value(int index, int random) { return index / 3 * 2 + (random > 200); }

// Heads of runs of equal values, and a 16-bin histogram of the block's items.
__global__ void block_discontinuity_histogram(const int* in, int* heads, unsigned* bins) {
  using discontinuity_t = cub::BlockDiscontinuity<int, block_threads>;
  using histogram_t = cub::BlockHistogram<unsigned char, block_threads, items_per_thread, 16>;
  __shared__ typename discontinuity_t::TempStorage discontinuity_storage;
  __shared__ typename histogram_t::TempStorage histogram_storage;
  __shared__ unsigned block_bins[16];
  const int offset = blockIdx.x * block_threads * items_per_thread;
  int items[items_per_thread], flags[items_per_thread];
  cub::LoadDirectBlocked(threadIdx.x, in + offset, items);
  for (int k = 0; k < items_per_thread; ++k) items[k] = run_value(threadIdx.x * items_per_thread + k, items[k]);
  discontinuity_t(discontinuity_storage).FlagHeads(flags, items, differ());
  int count = 0;
  for (int k = 0; k < items_per_thread; ++k) count += flags[k];
  atomicAdd(heads + blockIdx.x, count);
  unsigned char samples[items_per_thread];
  for (int k = 0; k < items_per_thread; ++k) samples[k] = static_cast<unsigned char>(items[k] & 15);
  histogram_t(histogram_storage).Histogram(samples, block_bins);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(bins + threadIdx.x, block_bins[threadIdx.x]);
}

// --- Host references -----------------------------------------------------

int warp_max16(const std::vector<int>& v, int first) { return *std::max_element(v.begin() + first, v.begin() + first + 16); }

struct is_negative {
  __host__ __device__ bool operator()(int x) const { return x < 0; }
};

// The device-wide algorithms' two calls: the first asks for the storage's
// size, the second runs.
template <class Algorithm>
void with_temporary_storage(Algorithm algorithm) {
  void* storage = nullptr;
  std::size_t bytes = 0;
  algorithm(storage, bytes);
  cudaMalloc(&storage, bytes);
  algorithm(storage, bytes);
  cudaDeviceSynchronize();
  cudaFree(storage);
}

int main() {
  expectations expect;
  float* floats = managed<float>(n);
  int* ints = managed<int>(n);
  std::vector<int> host_ints(n);
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    floats[i] = static_cast<float>(x >> 8) / 16777216.0f * (i % 3 == 0 ? 1e4f : 1e-3f);
    ints[i] = host_ints[i] = static_cast<int>(x >> 23) - 256;  // -256 .. 255, with repeats
  }

  {  // warps
    constexpr int threads = blocks * block_threads;
    float* sums = managed<float>(threads / 32);
    int* maxima = managed<int>(threads / 16);
    int* exclusive = managed<int>(threads);
    int* inclusive16 = managed<int>(threads);
    warp_primitives<<<blocks, block_threads>>>(floats, ints, sums, maxima, exclusive, inclusive16);
    cudaDeviceSynchronize();
    for (int w = 0; w < threads / 32; ++w) std::printf("warp sum %d: %a\n", w, sums[w]);
    bool max_ok = true, scans_ok = true;
    for (int h = 0; h < threads / 16; ++h) max_ok &= maxima[h] == warp_max16(host_ints, h * 16);
    for (int i = 0; i < threads; ++i) {
      const int lane = i % 32, lane16 = i % 16;
      scans_ok &= exclusive[i] == std::accumulate(host_ints.begin() + (i - lane), host_ints.begin() + i, 0);
      scans_ok &= inclusive16[i] == std::accumulate(host_ints.begin() + (i - lane16), host_ints.begin() + i + 1, 0);
    }
    expect.check("WarpReduce<int, 16> max matches the host", max_ok, true);
    expect.check("WarpScan exclusive and 16-lane inclusive sums match the host", scans_ok, true);
    expect.check("inclusive16 of thread 20", inclusive16[20], host_ints[16] + host_ints[17] + host_ints[18] +
                                                                  host_ints[19] + host_ints[20]);
  }

  {  // block reductions, each algorithm
    float* sums = managed<float>(blocks);
    int* partial = managed<int>(blocks);
    const auto report = [&](const char* name) {
      cudaDeviceSynchronize();
      for (int b = 0; b < blocks; ++b) {
        std::printf("%s sum %d: %a\n", name, b, sums[b]);
        const int want = std::accumulate(host_ints.begin() + b * block_threads,
                                         host_ints.begin() + b * block_threads + 100, 0);
        expect.check(name, partial[b], want);
      }
    };
    block_reduce<cub::BLOCK_REDUCE_RAKING><<<blocks, block_threads>>>(floats, ints, sums, partial);
    report("BlockReduce raking");
    block_reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY><<<blocks, block_threads>>>(floats, ints, sums, partial);
    report("BlockReduce raking, commutative only");
    block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<blocks, block_threads>>>(floats, ints, sums, partial);
    report("BlockReduce warp reductions");
  }

  {  // block scans, each algorithm
    int* out = managed<int>(n);
    int* aggregates = managed<int>(blocks);
    const auto report = [&](const char* name) {
      cudaDeviceSynchronize();
      bool ok = true;
      for (int b = 0; b < blocks; ++b) {
        const int first = b * block_threads * items_per_thread;
        int running = 0;
        for (int i = first; i < first + block_threads * items_per_thread; ++i) {
          ok &= out[i] == running;
          running += host_ints[i];
        }
        ok &= aggregates[b] == running;
      }
      expect.check(name, ok, true);
    };
    block_scan<cub::BLOCK_SCAN_RAKING><<<blocks, block_threads>>>(ints, out, aggregates);
    report("BlockScan raking: exclusive sums and aggregates");
    block_scan<cub::BLOCK_SCAN_RAKING_MEMOIZE><<<blocks, block_threads>>>(ints, out, aggregates);
    report("BlockScan raking memoize: exclusive sums and aggregates");
    block_scan<cub::BLOCK_SCAN_WARP_SCANS><<<blocks, block_threads>>>(ints, out, aggregates);
    report("BlockScan warp scans: exclusive sums and aggregates");
  }

  {  // load, sort pairs, store
    int* keys = managed<int>(n);
    int* values = managed<int>(n);
    block_load_sort_store<<<blocks, block_threads>>>(ints, keys, values);
    cudaDeviceSynchronize();
    bool ok = true;
    const int tile = block_threads * items_per_thread;
    for (int b = 0; b < blocks; ++b) {
      std::vector<int> want(host_ints.begin() + b * tile, host_ints.begin() + (b + 1) * tile);
      std::sort(want.begin(), want.end());
      for (int i = 0; i < tile; ++i) {
        const int at = b * tile + i;
        ok &= keys[at] == want[i];
        // The value is where the key was: BlockLoad's transpose gives each
        // thread consecutive items (a blocked arrangement), as loading
        // directly would, reading memory a warp at a time.
        ok &= host_ints[values[at]] == keys[at];
      }
    }
    expect.check("BlockLoad transpose, BlockRadixSort pairs, BlockStore warp transpose", ok, true);
    std::printf("sorted keys 0, 100, 511: %d %d %d\n", keys[0], keys[100], keys[511]);
  }

  {  // discontinuities and histogram
    int* heads = managed<int>(blocks);
    unsigned* bins = managed<unsigned>(16);
    std::fill(heads, heads + blocks, 0);
    std::fill(bins, bins + 16, 0u);
    block_discontinuity_histogram<<<blocks, block_threads>>>(ints, heads, bins);
    cudaDeviceSynchronize();
    const int tile = block_threads * items_per_thread;
    for (int b = 0; b < blocks; ++b) {
      int want = 1;
      for (int i = 1; i < tile; ++i) {
        want += run_value(i, host_ints[b * tile + i]) != run_value(i - 1, host_ints[b * tile + i - 1]);
      }
      expect.check("BlockDiscontinuity heads", heads[b], want);
    }
    std::vector<unsigned> want_bins(16, 0);
    for (int i = 0; i < n; ++i) ++want_bins[run_value(i % tile, host_ints[i]) & 15];
    bool ok = true;
    for (int b = 0; b < 16; ++b) ok &= bins[b] == want_bins[b];
    expect.check("BlockHistogram bins", ok, true);
  }

  // --- Device-wide algorithms --------------------------------------------
  int* out = managed<int>(n);
  int* values_out = managed<int>(n);
  int* values_in = managed<int>(n);
  int* count = managed<int>(1);
  std::iota(values_in, values_in + n, 0);
  {
    float* sum = managed<float>(1);
    with_temporary_storage([&](void* s, std::size_t& b) { cub::DeviceReduce::Sum(s, b, floats, sum, n); });
    std::printf("DeviceReduce::Sum of floats: %a\n", *sum);
    int* biggest = managed<int>(1);
    with_temporary_storage([&](void* s, std::size_t& b) { cub::DeviceReduce::Max(s, b, ints, biggest, n); });
    expect.check("DeviceReduce::Max", *biggest, *std::max_element(host_ints.begin(), host_ints.end()));
    auto* arg = managed<cub::KeyValuePair<int, int>>(1);
    with_temporary_storage([&](void* s, std::size_t& b) { cub::DeviceReduce::ArgMin(s, b, ints, arg, n); });
    const auto smallest = std::min_element(host_ints.begin(), host_ints.end());
    expect.check("DeviceReduce::ArgMin key", arg->key, smallest - host_ints.begin());
    expect.check("DeviceReduce::ArgMin value", arg->value, *smallest);
  }
  {
    with_temporary_storage([&](void* s, std::size_t& b) { cub::DeviceScan::InclusiveSum(s, b, ints, out, n); });
    std::vector<int> want(n);
    std::partial_sum(host_ints.begin(), host_ints.end(), want.begin());
    expect.check("DeviceScan::InclusiveSum", std::equal(want.begin(), want.end(), out), true);
    expect.check("DeviceScan::InclusiveSum, last", out[n - 1], want[n - 1]);
  }
  {
    with_temporary_storage(
        [&](void* s, std::size_t& b) { cub::DeviceRadixSort::SortPairs(s, b, ints, out, values_in, values_out, n); });
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return host_ints[a] < host_ints[b]; });
    bool ok = true;
    for (int i = 0; i < n; ++i) ok &= out[i] == host_ints[order[i]] && values_out[i] == order[i];
    expect.check("DeviceRadixSort::SortPairs (stable)", ok, true);
    with_temporary_storage(
        [&](void* s, std::size_t& b) { cub::DeviceRadixSort::SortKeysDescending(s, b, ints, out, n); });
    std::vector<int> descending(host_ints);
    std::sort(descending.begin(), descending.end(), [](int a, int b) { return a > b; });
    expect.check("DeviceRadixSort::SortKeysDescending", std::equal(descending.begin(), descending.end(), out), true);
  }
  {
    with_temporary_storage(
        [&](void* s, std::size_t& b) { cub::DeviceSelect::If(s, b, ints, out, count, n, is_negative()); });
    std::vector<int> want;
    std::copy_if(host_ints.begin(), host_ints.end(), std::back_inserter(want), is_negative());
    expect.check("DeviceSelect::If count", *count, static_cast<long long>(want.size()));
    expect.check("DeviceSelect::If keeps the order", std::equal(want.begin(), want.end(), out), true);
    std::vector<int> sorted(host_ints);
    std::sort(sorted.begin(), sorted.end());
    std::copy(sorted.begin(), sorted.end(), values_in);
    with_temporary_storage([&](void* s, std::size_t& b) { cub::DeviceSelect::Unique(s, b, values_in, out, count, n); });
    const auto distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
    expect.check("DeviceSelect::Unique count", *count, distinct);
  }
  {
    unsigned* histogram = managed<unsigned>(8);
    with_temporary_storage([&](void* s, std::size_t& b) {
      cub::DeviceHistogram::HistogramEven(s, b, ints, histogram, 9, -256, 256, n);
    });
    bool ok = true;
    for (int bin = 0; bin < 8; ++bin) {
      const auto want = std::count_if(host_ints.begin(), host_ints.end(),
                                      [&](int v) { return v >= -256 + 64 * bin && v < -256 + 64 * (bin + 1); });
      ok &= histogram[bin] == static_cast<unsigned>(want);
    }
    expect.check("DeviceHistogram::HistogramEven", ok, true);
  }
  {
    int* offsets = managed<int>(4);
    offsets[0] = 0;
    offsets[1] = 100;
    offsets[2] = 100;  // an empty segment
    offsets[3] = n;
    with_temporary_storage([&](void* s, std::size_t& b) {
      cub::DeviceSegmentedReduce::Sum(s, b, ints, out, 3, offsets, offsets + 1);
    });
    expect.check("DeviceSegmentedReduce::Sum 0", out[0], std::accumulate(host_ints.begin(), host_ints.begin() + 100, 0));
    expect.check("DeviceSegmentedReduce::Sum of an empty segment", out[1], 0);
    expect.check("DeviceSegmentedReduce::Sum 2", out[2], std::accumulate(host_ints.begin() + 100, host_ints.end(), 0));
  }
  expect.check("no CUDA error", cudaGetLastError(), cudaSuccess);
  return expect.passed();
}
