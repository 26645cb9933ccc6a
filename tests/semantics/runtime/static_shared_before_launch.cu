// Static __shared__ memory is a property of a kernel's code, known before
// it runs: cudaFuncGetAttributes, the occupancy API and the launch checks
// answer from the first call. No kernel here runs before these questions.
// (cusim: cusim-cc's clang front end registers the sizes; diff.runtime.
// static_shared_before_launch compares the answers with an H100's.)
#include <cstdio>

namespace tiles {
constexpr int edge = 24;

// 40 KiB: five blocks fit in an H100 multiprocessor's 228 KiB.
__global__ void big(float* out) {
  __shared__ float block[10240];
  block[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = block[(threadIdx.x + 1) % blockDim.x];
}

// Sized by constexpr expressions, several declarators, several types.
__global__ void constexpr_sized(int* out) {
  __shared__ int square[edge][edge], line[edge * 2];
  __shared__ double wide[edge / 3];
  square[0][threadIdx.x] = threadIdx.x;
  line[threadIdx.x] = out[threadIdx.x];
  wide[threadIdx.x % 8] = threadIdx.x * 0.5;
  __syncthreads();
  out[threadIdx.x] = square[0][(threadIdx.x + 1) % edge] + line[(threadIdx.x + 1) % 48] +
                     static_cast<int>(wide[(threadIdx.x + 1) % 8]);
}
}  // namespace tiles

// Sized by template parameters; launched with a '>' in its arguments.
template <class T, int N>
__global__ void templated(T* out) {
  __shared__ T cells[N * 4];
  cells[threadIdx.x] = T(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % N];
}

struct particle {
  double position[3];
  float mass;
};

// Shared memory declared in a device function counts for its callers.
__device__ float weigh(int i) {
  __shared__ particle swarm[16];
  swarm[i % 16].mass = 1.5f * i;
  __syncthreads();
  return swarm[(i + 1) % 16].mass;
}

__shared__ unsigned int file_scope_counter[8];

// Reaches shared memory through a call, and names a file-scope __shared__
// array. (A kernel cannot be a member function, static or not: nvcc
// refuses it.)
__global__ void through_call(float* out) {
  if (threadIdx.x < 8) file_scope_counter[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = weigh(threadIdx.x) + file_scope_counter[threadIdx.x % 8];
}

// A byte, then a double: the double is aligned.
__global__ void padded(const double* in, double* out) {
  __shared__ char flag;
  __shared__ double value;
  if (threadIdx.x == 0) {
    flag = in[0] > 0;
    value = in[1];
  }
  __syncthreads();
  out[threadIdx.x] = value + flag;
}

// Only dynamic shared memory: no static bytes.
__global__ void dynamic_only(float* out) {
  extern __shared__ float scratch[];
  scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = scratch[threadIdx.x];
}

constexpr int depth = 3;

template <class F>
void show(const char* name, F* kernel) {
  cudaFuncAttributes attributes{};
  const cudaError_t e = cudaFuncGetAttributes(&attributes, kernel);
  std::printf("%-24s sharedSizeBytes %zu (%s)\n", name, attributes.sharedSizeBytes, cudaGetErrorName(e));
}

int main() {
  show("tiles::big", tiles::big);
  show("tiles::constexpr_sized", tiles::constexpr_sized);
  show("templated<float, 32>", templated<float, 32>);
  show("templated<int, (depth > 2 ? 7 : 1)>", templated<int, (depth > 2 ? 7 : 1)>);
  show("through_call", through_call);
  show("padded", padded);
  show("dynamic_only", dynamic_only);

  int blocks = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiles::big, 128, 0);
  std::printf("big: %d blocks of 128 threads per multiprocessor (%s)\n", blocks, cudaGetErrorName(e));
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, templated<float, 32>, 128, 0);
  std::printf("templated<float, 32>: %d blocks of 128 threads per multiprocessor (%s)\n", blocks,
              cudaGetErrorName(e));

  // Static and dynamic together over a block's default 48 KiB: refused at
  // the launch, before anything runs.
  float* out = nullptr;
  cudaMalloc(&out, 1024 * sizeof(float));
  tiles::big<<<1, 128, 16 * 1024>>>(out);
  std::printf("big with 16 KiB dynamic: %s\n", cudaGetErrorName(cudaGetLastError()));
  // The opt-in limit is what is left of a block's 227 KiB after the static part.
  e = cudaFuncSetAttribute(tiles::big, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 - 40 * 1024 + 4);
  std::printf("opt in to 187 KiB + 4 B dynamic: %s (last error %s)\n", cudaGetErrorName(e),
              cudaGetErrorName(cudaGetLastError()));
  e = cudaFuncSetAttribute(tiles::big, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 - 40 * 1024);
  std::printf("opt in to 187 KiB dynamic: %s\n", cudaGetErrorName(e));
  tiles::big<<<1, 128, 16 * 1024>>>(out);
  std::printf("big with 16 KiB dynamic after opting in: %s, %s\n", cudaGetErrorName(cudaGetLastError()),
              cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
