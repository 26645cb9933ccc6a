// What clang's front end adds to the rewrite of __shared__ variables
// (tools/cusim-cc/front_end_marks.hpp): each use becomes the block's array itself
// (`name.get()`) and a function-scope declaration a constant static view, so
// that the shapes the rewriter alone cannot give their GPU meaning build and
// run. shared.cu has what the rewriter makes of them without clang's marks.
// nvcc 13 builds this file (nvcc.build.shared_front_end), and on an H200 it
// prints the same line.
#include <cstdio>
#include <cuda_runtime.h>

extern __shared__ float dynamic_floats[];
// CHECK: ::cusim::detail::dynamic_shared_array<float> dynamic_floats;
__shared__ int block_table[8];

template <class T> __device__ T* first_of(T* p) { return p; }
template <class T, int N> __device__ int length_of(T (&)[N]) { return N; }

// Namespace scope: template argument deduction sees the arrays.
__global__ void deduced(int* out) {
  float* p = first_of(dynamic_floats);
  // CHECK: float* p = first_of(dynamic_floats.get());
  p[threadIdx.x] = float(threadIdx.x);
  if (threadIdx.x < 8) block_table[threadIdx.x] = int(threadIdx.x) * 10;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = length_of(block_table) + block_table[7] + int(dynamic_floats[5]);
}

// A goto and a case label past function-scope declarations: on a GPU the
// variables are not automatic, and nothing initialises them there.
__global__ void jumps(int* out, int mode) {
  if (mode > 1) goto done;
  switch (mode) {
    case 0:
      __shared__ int tile[32];
      // CHECK: [[maybe_unused]] static constexpr ::cusim::detail::local_shared_view<::std::type_identity_t<int[32]>> tile{&cusim_shared_site_1};
      tile[threadIdx.x] = int(threadIdx.x);
      // CHECK: tile.get()[threadIdx.x] = int(threadIdx.x);
      __syncthreads();
      if (threadIdx.x == 0) out[1] = tile[31 - threadIdx.x];
      break;
    case 1:
      out[1] = -1;
  }
done:
  return;
}

// A lambda that names one needs no capture: `[]` still converts to a
// function pointer.
template <class T>
__global__ void without_capture(T* out) {
  __shared__ T values[32];
  extern __shared__ T more[];
  // CHECK: [[maybe_unused]] static constexpr ::cusim::detail::dynamic_shared_array<T> more{};
  T (*read)(int) = [](int i) { return values[i] + more[i]; };
  // CHECK: [](int i) { return values.get()[i] + more.get()[i]; }
  values[threadIdx.x] = T(threadIdx.x);
  more[threadIdx.x] = T(100);
  __syncthreads();
  static_assert(sizeof(values) == 32 * sizeof(T) && sizeof(more[0]) == sizeof(T));
  using element = decltype(values[0]);
  if (threadIdx.x == 0) out[2] = read(31) + T(sizeof(element));
}

// Where clang cannot mark every use, the variable keeps the rewriter's
// form, a reference: a use in a macro's body, a declaration by a macro.
#define FIRST_OF_SUMS sums[0]
#define DECLARE_SHARED(type, name) __shared__ type name
__global__ void unmarked(int* out) {
  __shared__ int sums[4];
  // CHECK: ::std::type_identity_t<int[4]>& sums = *static_cast
  DECLARE_SHARED(int, counts[4]);
  // CHECK: ::std::type_identity_t<int[4]>& counts = *static_cast
  if (threadIdx.x < 4) sums[threadIdx.x] = counts[threadIdx.x] = 1;
  __syncthreads();
  auto total = [&] { return counts[0] + counts[3]; };
  if (threadIdx.x == 0) out[3] = FIRST_OF_SUMS + total();
  {
    int sums = 5;  // not the shared one: left as it is
    // CHECK: int sums = 5;
    if (threadIdx.x == 0) out[3] += sums;
  }
}

int main() {
  int* out;
  cudaMallocManaged(&out, 4 * sizeof(int));
  deduced<<<1, 32, 32 * sizeof(float)>>>(out);
  jumps<<<1, 32>>>(out, 0);
  without_capture<int><<<1, 32, 32 * sizeof(int)>>>(out);
  unmarked<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  std::printf("%s: %d %d %d %d\n", cudaGetErrorName(cudaGetLastError()), out[0], out[1], out[2], out[3]);
  // OUTPUT: cudaSuccess: 83 31 135 8
  return 0;
}
