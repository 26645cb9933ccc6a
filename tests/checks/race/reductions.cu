// Planted races for cusim-cc --check=race, one per case (argv[1]); CTest
// checks each report names the line and both threads, and that the correct
// versions report nothing.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <cuda_runtime.h>

constexpr int threads = 128;

// A tree reduction in shared memory.
__global__ void tree_sum(const int* in, int* out, bool with_barriers) {
  __shared__ int partial[threads];
  partial[threadIdx.x] = in[blockIdx.x * threads + threadIdx.x];
  if (with_barriers) __syncthreads();
  for (int stride = threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    if (with_barriers) __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// A global counter: plain increments race, atomics do not.
__global__ void count(int* counter, bool atomic) {
  if (atomic) {
    atomicAdd(counter, 1);
  } else {
    *counter += 1;
  }
}

// A warp reduction through shuffles: nothing shared, no race.
__global__ void warp_sum(const int* in, int* out) {
  int v = in[blockIdx.x * threads + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

// The last block to finish sums the others' results, ordered by a fence and
// an atomic counter (the threadFenceReduction pattern): correct.
__global__ void last_block_sums(const int* in, int* partials, unsigned int* done, int* total) {
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    const unsigned int finished = atomicInc(done, gridDim.x);
    if (finished == gridDim.x - 1) {
      int sum = 0;
      for (unsigned int b = 0; b < gridDim.x; ++b) sum += partials[b];
      *total = sum;
    }
  }
}

// Each thread stages its value in a device-heap block it frees after use;
// later threads get the same memory again: correct (the allocator orders a
// block's owners).
__global__ void staged_sum(const int* in, int* out) {
  int* slot = static_cast<int*>(malloc(sizeof(int)));
  *slot = in[blockIdx.x * threads + threadIdx.x];
  atomicAdd(&out[blockIdx.x], *slot);
  free(slot);
}

// Threads signal one another through volatile flags, nothing ordering them:
// volatile accesses are relaxed ones (PTX's rule), which do not race with
// each other (CUB's decoupled look-back passes tile states so); a plain read
// of a flag another thread writes does.
template <bool plain_read>
__global__ void flags_between_threads(int* flags, int* out) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, count = gridDim.x * blockDim.x;
  volatile int* shared_flags = flags;
  shared_flags[i] = 2;
  const unsigned int next = (i + 1) % count;
  int seen;
  if constexpr (plain_read) {
    seen = flags[next];
  } else {
    seen = shared_flags[next];
  }
  if (seen == 2) atomicAdd(out, 1);
}

// Each block writes its results where every other block writes its own (an
// index from threadIdx alone): the blocks race with one another, whichever
// order they run in, one after another on one worker included.
__global__ void blocks_overwrite(const int* in, int* out) {
  out[threadIdx.x] = 2 * in[blockIdx.x * threads + threadIdx.x];
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  const int blocks = 4;
  int* in;
  int* out;
  unsigned int* done;
  cudaMallocManaged(&in, blocks * threads * sizeof(int));
  cudaMallocManaged(&out, blocks * sizeof(int) + sizeof(int));
  cudaMallocManaged(&done, sizeof(unsigned int));
  for (int i = 0; i < blocks * threads; ++i) in[i] = 1;
  std::memset(out, 0, blocks * sizeof(int) + sizeof(int));
  *done = 0;
  if (std::strcmp(which, "missing-barrier") == 0 || std::strcmp(which, "tree") == 0) {
    tree_sum<<<blocks, threads>>>(in, out, std::strcmp(which, "tree") == 0);
  } else if (std::strcmp(which, "counter") == 0 || std::strcmp(which, "atomic-counter") == 0) {
    count<<<blocks, threads>>>(out, std::strcmp(which, "atomic-counter") == 0);
  } else if (std::strcmp(which, "warp") == 0) {
    warp_sum<<<blocks, threads>>>(in, out);
  } else if (std::strcmp(which, "fence") == 0) {
    last_block_sums<<<blocks, threads>>>(in, out + 1, done, out);
  } else if (std::strcmp(which, "heap") == 0) {
    staged_sum<<<blocks, threads>>>(in, out);
  } else if (std::strcmp(which, "host-too-early") == 0) {
    // The host reads a result the kernel may not have written yet: no
    // synchronisation between the launch and the read. (It does other work
    // first, so the kernel has started: see docs/debugging.md on a kernel
    // that starts only after the host's next CUDA call.)
    tree_sum<<<blocks, threads>>>(in, out, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::printf("%s: read before synchronising %d\n", which, out[0]);
  } else if (std::strcmp(which, "blocks-overwrite") == 0) {
    blocks_overwrite<<<blocks, threads>>>(in, in);
  } else if (std::strcmp(which, "sampled-grid") == 0) {
    // A grid over race checking's thread budget (CUSIM_RACE_THREADS): the
    // blocks it follows still show the race between blocks.
    const int many = 2048;
    int* large;
    cudaMallocManaged(&large, many * threads * sizeof(int));
    std::memset(large, 0, many * threads * sizeof(int));
    blocks_overwrite<<<many, threads>>>(large, large);
    cudaDeviceSynchronize();
    cudaFree(large);
  } else if (std::strcmp(which, "volatile") == 0) {
    flags_between_threads<false><<<blocks, threads>>>(in, out);
  } else if (std::strcmp(which, "volatile-and-plain") == 0) {
    flags_between_threads<true><<<blocks, threads>>>(in, out);
  } else {
    std::printf(
        "usage: reductions missing-barrier|tree|counter|atomic-counter|warp|fence|heap|volatile|volatile-and-plain|"
        "host-too-early|blocks-overwrite|sampled-grid\n");
    return 2;
  }
  cudaDeviceSynchronize();
  std::printf("%s: first result %d\n", which, out[0]);
  return 0;
}
