// sm_90's 16-byte atomics: atomicCAS and atomicExch of 16-byte types (a
// struct of two counters, float4, unsigned __int128), their _block and
// _system forms, and the __u128AtomicCAS built-in, in global and shared
// memory, by 16384 threads at once. The output is the same on an H100
// (diff.atomics.128); with CUSIM_WORKERS=4 the swaps race across OS threads.
#include <cstdio>

struct alignas(16) tally {
  unsigned long long count, sum;
};

// Adds one thread's id to the tally with a compare-and-swap loop, as code
// that keeps two counters consistent without a lock does.
__device__ void add_to(tally* t, unsigned long long id) {
  tally seen = {0, 0};
  for (;;) {
    const tally next = {seen.count + 1, seen.sum + id};
    const tally found = atomicCAS(t, seen, next);
    if (found.count == seen.count && found.sum == seen.sum) return;
    seen = found;
  }
}

__global__ void tally_threads(tally* global_tally, tally* block_tallies) {
  __shared__ tally block_tally;
  if (threadIdx.x == 0) block_tally = tally{0, 0};
  __syncthreads();
  const unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
  add_to(global_tally, id);
  add_to(&block_tally, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) block_tallies[blockIdx.x] = block_tally;
}

// Every thread swaps its own float4 into one cell and keeps what it found:
// the values found, with the one left, are the first value and every
// thread's, each once.
__global__ void exchange_chain(float4* cell, float4* found) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 mine = make_float4(float(i + 1), 2.0f * float(i + 1), 0.5f, -float(i + 1));
  found[i] = (i % 3 == 0) ? atomicExch_block(cell, mine) : (i % 3 == 1) ? atomicExch_system(cell, mine)
                                                                         : atomicExch(cell, mine);
}

__global__ void wide_integers(unsigned __int128* value, unsigned __int128* results) {
  const unsigned __int128 start = (static_cast<unsigned __int128>(0x0123456789abcdefull) << 64) | 0xfedcba9876543210ull;
  const unsigned __int128 next = start + (static_cast<unsigned __int128>(1) << 64) + 1;
  results[0] = atomicCAS(value, start + 1, next);          // fails: the value is start
  results[1] = atomicCAS_system(value, start, next);       // swaps
  results[2] = atomicCAS_block(value, next, ~next);        // swaps again
  unsigned __int128 compare = ~next, desired = 42, old = 0;
  __u128AtomicCAS(value, &compare, &desired, &old);        // the built-in nvcc's templates call
  results[3] = old;
  results[4] = *value;
}

void print_u128(const char* what, unsigned __int128 v) {
  std::printf("%s %016llx%016llx\n", what, static_cast<unsigned long long>(v >> 64), static_cast<unsigned long long>(v));
}

int main() {
  const int blocks = 64, threads = 256, n = blocks * threads;
  tally *global_tally, *block_tallies;
  cudaMallocManaged(&global_tally, sizeof(tally));
  cudaMallocManaged(&block_tallies, blocks * sizeof(tally));
  *global_tally = tally{0, 0};
  tally_threads<<<blocks, threads>>>(global_tally, block_tallies);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("tally: %s, count %llu, sum %llu (expected %d, %llu)\n", cudaGetErrorString(e), global_tally->count,
              global_tally->sum, n, static_cast<unsigned long long>(n) * (n - 1) / 2);
  bool blocks_right = true;
  for (int b = 0; b < blocks; ++b) {
    blocks_right &= block_tallies[b].count == threads && block_tallies[b].sum == threads * (threads - 1) / 2;
  }
  std::printf("shared-memory tallies: %s\n", blocks_right ? "all 256 threads, ids summed" : "WRONG");

  float4 *cell, *found;
  cudaMallocManaged(&cell, sizeof(float4));
  cudaMallocManaged(&found, n * sizeof(float4));
  *cell = make_float4(0.0f, 0.0f, 0.5f, 0.0f);
  exchange_chain<<<blocks, threads>>>(cell, found);
  e = cudaDeviceSynchronize();
  double x = cell->x, y = cell->y, w = cell->w;
  bool halves = cell->z == 0.5f;
  for (int i = 0; i < n; ++i) {
    x += found[i].x;
    y += found[i].y;
    w += found[i].w;
    halves &= found[i].z == 0.5f;
  }
  const double expected = double(n) * (n + 1) / 2;
  std::printf("exchange chain: %s, every value once: %s, no torn value: %s\n", cudaGetErrorString(e),
              x == expected && y == 2 * expected && w == -expected ? "yes" : "no", halves ? "yes" : "no");

  unsigned __int128 *value, *results;
  cudaMallocManaged(&value, sizeof(unsigned __int128));
  cudaMallocManaged(&results, 5 * sizeof(unsigned __int128));
  *value = (static_cast<unsigned __int128>(0x0123456789abcdefull) << 64) | 0xfedcba9876543210ull;
  wide_integers<<<1, 1>>>(value, results);
  e = cudaDeviceSynchronize();
  std::printf("wide integers: %s\n", cudaGetErrorString(e));
  print_u128("failed swap returns", results[0]);
  print_u128("swap returns", results[1]);
  print_u128("second swap returns", results[2]);
  print_u128("__u128AtomicCAS finds", results[3]);
  print_u128("final value", results[4]);
  return 0;
}
