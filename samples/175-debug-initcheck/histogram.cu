// 175 — debugging memory nothing wrote: a histogram whose bins were never zeroed.
//
// cudaMalloc gives memory as it finds it. Here an earlier step used a
// buffer of the bins' size and gave it back, and the bins come from the
// allocator afterwards: on a GPU they often get the same bytes, holding
// what the earlier step left there. The buggy version forgets the
// cudaMemset that zeroes the bins, so each count starts from whatever was
// there. Whether the result comes out wrong depends on the allocator; the
// read of unwritten memory is there either way, and
// `cusim-cc --check=init` (compute-sanitizer's initcheck) reports it with
// the kernel, block, thread and line: the atomicAdd below reads a bin
// nothing has written (docs/debugging.md).
//
// Run without arguments, the program zeroes the bins and checks the counts;
// with --buggy it leaves them as cudaMalloc gave them.
// Build: cusim-cc histogram.cu -o histogram (or nvcc);
//        cusim-cc --check=init histogram.cu -o init, then ./init --buggy
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int bins = 16;
const int n = 1 << 16;

__global__ void fill(unsigned int* out, unsigned int value) { out[threadIdx.x] = value; }

// Grid-stride loop: each thread counts its share of the bytes.
__global__ void histogram(const unsigned char* data, int count, unsigned int* counts) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    atomicAdd(&counts[data[i] % bins], 1u);  // reads the bin's count: it must have been zeroed
  }
}

int main(int argc, char** argv) {
  const bool buggy = argc > 1 && std::strcmp(argv[1], "--buggy") == 0;
  static unsigned char host_data[n];
  unsigned int expected[bins] = {};
  for (int i = 0; i < n; ++i) {
    host_data[i] = static_cast<unsigned char>((i * 7 + i / 3) % 251);
    ++expected[host_data[i] % bins];
  }
  unsigned char* data;
  CHECK(cudaMalloc(&data, n));
  CHECK(cudaMemcpy(data, host_data, n, cudaMemcpyHostToDevice));

  // An earlier step's buffer, of the bins' size, given back.
  unsigned int* scratch;
  CHECK(cudaMalloc(&scratch, bins * sizeof(unsigned int)));
  fill<<<1, bins>>>(scratch, 7);
  CHECK(cudaFree(scratch));

  unsigned int* counts;
  CHECK(cudaMalloc(&counts, bins * sizeof(unsigned int)));
  if (!buggy) CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned int)));  // the fix
  histogram<<<32, 256>>>(data, n, counts);
  CHECK(cudaGetLastError());

  unsigned int result[bins];
  CHECK(cudaMemcpy(result, counts, sizeof result, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += result[b] != expected[b];
  std::printf("%s: bin 0 counts %u (expected %u), %d of %d bins wrong\n",
              buggy ? "bins left as cudaMalloc gave them" : "bins zeroed first", result[0], expected[0], wrong, bins);
  if (buggy) {
    std::printf(wrong ? "the unwritten bins changed the result\n"
                      : "the counts came out right this time: the read of unwritten memory is there all the same "
                        "(--check=init finds it)\n");
  } else {
    std::printf("histogram of %d bytes: %s\n", n, wrong == 0 ? "PASSED" : "FAILED");
  }
  CHECK(cudaFree(data));
  CHECK(cudaFree(counts));
  return wrong == 0 ? 0 : 1;
}
