// Launch and shared-memory shapes that a text-based front end gets wrong:
// template arguments holding '>' and '>>', nested templates, dependent
// types, launches from macros and templates, kernels in namespaces and with
// internal linkage, extern __shared__ arrays of several types in one kernel
// used as real arrays (T* deduction, decltype, sizeof, templates), shared
// arrays sized by template parameters and constexpr expressions, and
// shared memory named inside lambdas that capture by copy. (Sizes are
// asked for after a launch: static_shared_before_launch.cu checks them before.)
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("error %s at line %d\n", cudaGetErrorName(e_), __LINE__);    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

template <class T, int N>
__global__ void fill(T* out, T value) {
  out[threadIdx.x % N] = value + T(N);
}

template <int A, int B>
struct pick {
  static constexpr int value = A > B ? A : B;
};

template <class T>
struct box {
  T v;
};

template <class T, int Shift>
__global__ void shifted(int* out) {
  out[threadIdx.x] = int(sizeof(T)) << Shift;
}

namespace outer {
namespace inner {
__global__ void in_namespace(int* out) { out[0] = 42; }
}  // namespace inner
}  // namespace outer

static __global__ void internal_kernel(int* out) { out[0] = 7; }

// Shared arrays sized by template parameters and constexpr expressions.
constexpr int rows = 4;
__host__ __device__ constexpr int cols() { return rows * 2; }

template <int Tile>
__global__ void tiled_sum(const int* in, int* out) {
  __shared__ int tile[Tile][cols() + 1];
  __shared__ double scale[pick<Tile, 3>::value];
  const int t = threadIdx.x;
  for (int c = 0; c < cols(); ++c) tile[t][c] = in[t] + c;
  for (int i = t; i < pick<Tile, 3>::value; i += blockDim.x) scale[i] = 0.5 * (i + 1);
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int r = 0; r < Tile; ++r)
      for (int c = 0; c < cols(); ++c) sum += tile[r][c];
    out[0] = sum;
    out[1] = int(scale[pick<Tile, 3>::value - 1] * 100);
    out[2] = int(sizeof(tile) / sizeof(tile[0][0]));
  }
}

// Deduces T from a pointer: an extern __shared__ array must decay to T*.
template <class T>
__device__ T* offset_of(T* base, int i) { return base + i; }

template <class T>
__device__ void store(T* where, T v) { *where = v; }

// Several extern __shared__ arrays of different types alias the same bytes.
__global__ void aliasing(int* out) {
  extern __shared__ int as_int[];
  extern __shared__ unsigned char as_bytes[];
  extern __shared__ float as_float[];
  const int t = threadIdx.x;
  store(offset_of(as_int, t), t * 3);
  __syncthreads();
  if (t == 0) {
    out[0] = as_int[5];
    out[1] = as_bytes[4 * 5];  // low byte of as_int[5] (little-endian)
    out[2] = (&as_int[0] == reinterpret_cast<int*>(as_float)) ? 1 : 0;
    out[3] = int(sizeof(as_float[0]));
    out[4] = std::is_same<std::remove_reference_t<decltype(as_int[0])>, int>::value ? 1 : 0;
    int* p = as_int + 2;
    out[5] = *p;
  }
}

// Shared memory named in lambdas capturing by copy: the lambdas see the
// block's shared memory, not a copy of it.
__global__ void lambdas(int* out) {
  __shared__ int counts[4];
  extern __shared__ int dyn[];
  const int t = threadIdx.x;
  if (t < 4) counts[t] = 0;
  __syncthreads();
  auto bump = [=](int i) { atomicAdd(&counts[i % 4], 1); };
  bump(t);
  auto put = [=](int v) { dyn[t] = v; };
  put(t + 100);
  __syncthreads();
  auto read = [](int i) { return counts[i]; };  // captures nothing: shared memory is not automatic
  if (t == 0) {
    for (int i = 0; i < 4; ++i) out[i] = read(i);
    out[4] = dyn[blockDim.x - 1];
  }
}

#define LAUNCH_ONE(kernel, ...) kernel<<<1, 1>>>(__VA_ARGS__)

template <class T>
void launch_in_template(T* out, T value) {
  fill<T, (sizeof(T) > 2 ? 4 : 2)><<<1, 8>>>(out, value);
}

int main() {
  int* out;
  CHECK(cudaMallocManaged(&out, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) out[i] = 0;

  fill<int, (3 > 2 ? 7 : 1)><<<1, 7>>>(out, 1);
  CHECK(cudaDeviceSynchronize());
  std::printf("fill<int, (3 > 2 ? 7 : 1)>: %d %d\n", out[0], out[6]);

  fill<int, pick<5, 2>::value><<<dim3(1), dim3(5)>>>(out, 2);
  CHECK(cudaDeviceSynchronize());
  std::printf("fill<int, pick<5, 2>::value>: %d\n", out[4]);

  shifted<box<box<double>>, (16 >> 2)><<<1, 2>>>(out);
  CHECK(cudaDeviceSynchronize());
  std::printf("shifted<box<box<double>>, (16 >> 2)>: %d %d\n", out[0], out[1]);

  long* longs;
  CHECK(cudaMallocManaged(&longs, 8 * sizeof(long)));
  launch_in_template<long>(longs, 10L);
  CHECK(cudaDeviceSynchronize());
  std::printf("launch_in_template<long>: %ld\n", longs[3]);
  short* shorts;
  CHECK(cudaMallocManaged(&shorts, 8 * sizeof(short)));
  launch_in_template<short>(shorts, short(3));
  CHECK(cudaDeviceSynchronize());
  std::printf("launch_in_template<short>: %d\n", int(shorts[1]));

  LAUNCH_ONE(outer::inner::in_namespace, out);
  CHECK(cudaDeviceSynchronize());
  std::printf("outer::inner::in_namespace: %d\n", out[0]);
  LAUNCH_ONE(internal_kernel, out + 1);
  CHECK(cudaDeviceSynchronize());
  std::printf("internal_kernel: %d\n", out[1]);

  int* in;
  CHECK(cudaMallocManaged(&in, 32 * sizeof(int)));
  for (int i = 0; i < 32; ++i) in[i] = i;
  cudaFuncAttributes attributes;
  tiled_sum<4><<<1, 4>>>(in, out);
  CHECK(cudaDeviceSynchronize());
  std::printf("tiled_sum<4>: %d %d %d\n", out[0], out[1], out[2]);
  CHECK(cudaFuncGetAttributes(&attributes, tiled_sum<4>));
  std::printf("tiled_sum<4> static shared bytes: %zu\n", attributes.sharedSizeBytes);
  tiled_sum<2><<<1, 2>>>(in, out);
  CHECK(cudaDeviceSynchronize());
  std::printf("tiled_sum<2>: %d %d %d\n", out[0], out[1], out[2]);
  CHECK(cudaFuncGetAttributes(&attributes, tiled_sum<2>));
  std::printf("tiled_sum<2> static shared bytes: %zu\n", attributes.sharedSizeBytes);

  aliasing<<<1, 32, 32 * sizeof(int)>>>(out);
  CHECK(cudaDeviceSynchronize());
  std::printf("aliasing: %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4], out[5]);

  lambdas<<<1, 64, 64 * sizeof(int)>>>(out);
  CHECK(cudaDeviceSynchronize());
  std::printf("lambdas: %d %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4]);
  CHECK(cudaFuncGetAttributes(&attributes, lambdas));
  std::printf("lambdas static shared bytes: %zu\n", attributes.sharedSizeBytes);

  CHECK(cudaFree(out));
  CHECK(cudaFree(in));
  CHECK(cudaFree(longs));
  CHECK(cudaFree(shorts));
  return 0;
}
