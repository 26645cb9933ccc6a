// Every shape of __shared__ declaration CUDA allows, and what the rewriter
// alone makes of each (without clang's front end, or where it cannot mark a
// variable's uses): a slot in the running block's shared memory (static),
// or a view of the launch's dynamic shared memory (extern).
// shared_front_end.cu has what the front end's marks add.
// ENV: CUSIM_CC_KERNEL_FACTS=0
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

struct pair_of { int first; float second; };

__shared__ int block_counter;  // namespace scope
// CHECK: ::cusim::detail::static_shared_view<::std::type_identity_t<int>, &cusim_shared_site_0> block_counter;

template <class T, int N>
__global__ void shapes(int* out) {
  __shared__ float scalar;
  // CHECK: ::std::type_identity_t<float>& scalar = *static_cast<::std::type_identity_t<float>*>(::cusim::detail::shared_slot(cusim_shared_site_1));
  __shared__ T tile[N][N + 1];
  // CHECK: ::std::type_identity_t<T[N][N + 1]>& tile
  static __shared__ volatile int flags[4], *flag_pointer;
  // CHECK: ::std::type_identity_t<volatile int[4]>& flags
  // CHECK: ::std::type_identity_t<volatile int*>& flag_pointer
  __shared__ pair_of pairs[2];
  __shared__ __align__(64) unsigned char aligned_bytes[3];
  // CHECK: struct __attribute__((aligned(64))) cusim_shared_site_6_alignment {};
  __shared__ alignas(double2) char also_aligned[5], second
      [7];
  // CHECK: struct alignas(double2) cusim_shared_site_7_alignment {};
  // CHECK: struct alignas(double2) cusim_shared_site_8_alignment {};
  // CHECK-NOT: __shared__
  const unsigned t = threadIdx.x;
  if (t == 0) {
    scalar = 1.5f;
    block_counter = 0;
    flag_pointer = flags;
    pairs[1] = {7, 2.5f};
  }
  __syncthreads();
  atomicAdd(&block_counter, 1);
  if (t < N) tile[t][t] = T(t);
  flags[t % 4] = 1;
  __syncthreads();
  if (t == 0) {
    out[0] = block_counter;
    out[1] = int(scalar * 2) + pairs[1].first;
    out[2] = int(reinterpret_cast<std::uintptr_t>(aligned_bytes) % 64);
    out[3] = int(reinterpret_cast<std::uintptr_t>(also_aligned) % alignof(double2)) +
             int(reinterpret_cast<std::uintptr_t>(second) % alignof(double2));
    out[4] = flag_pointer[3] + int(tile[N - 1][N - 1]);
  }
}

// Dynamic shared memory: several extern arrays of different element types in
// one file, all of the same launch-sized memory: at namespace scope a view
// of it, in a function a pointer to it.
extern __shared__ float dynamic_floats[];
// CHECK: ::cusim::detail::dynamic_shared_array<float> dynamic_floats;
__global__ void use_floats(int* out) {
  dynamic_floats[threadIdx.x] = 0.5f * threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[5] = int(dynamic_floats[blockDim.x - 1] * 2);
}
__global__ void use_ints(int* out) {
  extern __shared__ int4 dynamic_vectors[];
  // CHECK: int4* const dynamic_vectors = static_cast<int4*>(::cusim::detail::dynamic_shared());
  extern __shared__ __align__(16) unsigned char dynamic_bytes[];
  // CHECK: unsigned char* const dynamic_bytes =
  dynamic_vectors[threadIdx.x] = make_int4(1, 2, 3, int(threadIdx.x));
  __syncthreads();
  if (threadIdx.x == 0) out[6] = dynamic_vectors[3].w + int(dynamic_bytes == static_cast<void*>(dynamic_vectors));
}

// __shared__ among the declaration's other specifiers, where real programs
// put it too (cuda-samples: `extern double __shared__ sdata[];`).
__global__ void keyword_after_type(int* out) {
  extern double __shared__ sdata[];
  // CHECK: double* const sdata =
  static unsigned int __shared__ count;
  // CHECK: ::std::type_identity_t<unsigned int>& count
  std::size_t __shared__ sizes[2];
  // CHECK: ::std::type_identity_t<std :: size_t[2]>& sizes
  volatile pair_of __shared__ volatile_pair;
  // CHECK: ::std::type_identity_t<volatile pair_of>& volatile_pair
  if (threadIdx.x == 0) {
    count = 0;
    sizes[1] = 3;
    volatile_pair.first = 4;
  }
  __syncthreads();
  atomicAdd(&count, 1u);
  sdata[threadIdx.x] = 0.5 * threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[7] = int(count + sizes[1] + volatile_pair.first + sdata[blockDim.x - 1]);
}

// A multi-dimensional extern array (cuda-samples' cudaTensorCoreGemm:
// `extern __shared__ half shmem[][CHUNK_K * K + SKEW_HALF];`): rows of 4.
__global__ void extern_rows(int* out) {
  extern __shared__ int rows[][4];
  // CHECK: ::std::type_identity_t<int[4]>* const rows =
  rows[threadIdx.x / 4][threadIdx.x % 4] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[8] = rows[2][1] + int(&rows[1][0] - &rows[0][0]);
}

int main() {
  int* out;
  cudaMallocManaged(&out, 9 * sizeof(int));
  shapes<short, 4><<<1, 32>>>(out);
  use_floats<<<1, 16, 16 * sizeof(float)>>>(out);
  use_ints<<<1, 8, 8 * sizeof(int4)>>>(out);
  keyword_after_type<<<1, 4, 4 * sizeof(double)>>>(out);
  extern_rows<<<1, 16, 16 * sizeof(int)>>>(out);
  cudaDeviceSynchronize();
  std::printf("%s: %d %d %d %d %d %d %d %d %d at line %d\n", cudaGetErrorName(cudaGetLastError()), out[0], out[1],
              out[2], out[3], out[4], out[5], out[6], out[7], out[8], __LINE__);
  // OUTPUT: cudaSuccess: 32 10 0 0 4 15 4 12 13 at line 118
  return 0;
}
