// Issue 26's tricky shapes of launches and shared memory, as a user writes
// them: template arguments holding '>' and '>>', kernels in nested
// namespaces and with internal linkage, a template argument that is itself
// a nested template, shared arrays sized by template parameters and
// constexpr calls, several extern __shared__ of different types aliasing
// the same bytes, T* deduction from an extern __shared__ array, launches in
// macros, and the static shared size.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <class T, int N> __global__ void k1(T* p) { p[threadIdx.x] = T(N); }
constexpr int big = 5;
namespace outer { namespace inner {
template <class T> __global__ void nk(T* p) { p[threadIdx.x] += 1; }
} }
namespace holder {
static __global__ void sk(int* p);
template <int M> static __global__ void tk(int* p) { p[threadIdx.x] += M; }
}
__global__ void holder::sk(int* p) { p[threadIdx.x] += 100; }

template <class A, class B> struct pair_t { A a; B b; };
template <class P> __global__ void pk(int* p) { p[threadIdx.x] += sizeof(P); }

__host__ __device__ constexpr int tile() { return 8 * 4; }
template <int S> __global__ void shared_sizes(int* p) {
  __shared__ int a[S];
  __shared__ float b[tile()];
  __shared__ double c[S * 2 + 1];
  a[threadIdx.x] = threadIdx.x; b[threadIdx.x] = 1.f; c[threadIdx.x] = 2.0;
  __syncthreads();
  p[threadIdx.x] = a[S - 1 - threadIdx.x] + (int)b[0] + (int)c[1];
}
__global__ void multi_extern(int* p) {
  extern __shared__ int si[];
  extern __shared__ float sf[];
  extern __shared__ char sc[];
  si[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x == 0) sf[0] = 1.0f;
  __syncthreads();
  p[threadIdx.x] = (sc[3] == 0x3f) ? 1 : 0;
  int* q = &si[0]; (void)q; auto r = si + 1; (void)r;
  static_assert(sizeof(sf[0]) == 4, "");
}
template <class T> __device__ T first_of(T* s) { return s[0]; }
__global__ void deduce(int* p) {
  extern __shared__ double sd[];
  sd[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = (int)first_of(sd) + 7;
}
// Template arguments given in part, the rest deduced from the launch's
// arguments (moderngpu's `launch_box_cta_k<launch_box, func_t><<<...>>>(f,
// num_ctas, args...)`), and given in full with arguments of other types,
// converted, to the one kernel they name (cudaFuncSetAttribute on it holds).
template <int N, class T> __global__ void partial(T* p, T v) { p[threadIdx.x] = int(v) + N; }
template <int N, class... Args> __global__ void variadic(int* p, Args... args) { p[threadIdx.x] = (N + ... + args); }
template <int N> __global__ void big_shared(int* p, size_t n) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = N;
  __syncthreads();
  if (threadIdx.x < n) p[threadIdx.x] = dyn[0] + int(n);
}
// Classes defined in a __shared__ or __constant__ declaration, named or
// not (moderngpu's kernels keep their shared memory in `__shared__ union {
// ... } shared;`).
__constant__ struct { int scale; int offset; } params = {3, 1};
__global__ void class_shared(int* p) {
  __shared__ union { int keys[32]; float values[32]; } shared;
  __shared__ struct pair_s { int a; int b; } pairs[2], single;
  __shared__ union { struct { int lo; int hi; } halves; long long both; } nested;  // the union is hoisted whole
  if (threadIdx.x == 0) nested.halves.hi = 0, nested.halves.lo = 0;
  shared.keys[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) pairs[1].b = 40, single.a = 2;
  __syncthreads();
  pair_s copy = pairs[1];
  p[threadIdx.x] = shared.keys[31 - threadIdx.x] * params.scale + params.offset + copy.b + single.a + int(nested.both);
}
// CHECK: namespace { struct cusim_declared_type_0 { int scale; int offset; }; } static struct cusim_declared_type_0 cusim_constant_storage_params = {3, 1};
// CHECK: union cusim_declared_type_1 { int keys[32]; float values[32]; }; static constinit ::cusim::detail::shared_site
// CHECK: struct pair_s { int a; int b; }; static constinit ::cusim::detail::shared_site
// A template argument named A (the deduced launch's resolver names its own
// packs so that they do not hide it).
struct A { static constexpr int value = 9; };
template <class T> __global__ void tagged(int* p) { p[threadIdx.x] = T::value; }
#define LAUNCH(kern, g, b, ...) kern<<<g, b>>>(__VA_ARGS__)
#define LAUNCH_T(T) k1<T, (big > 2 ? 3 : 1)><<<1, 32>>>
int main() {
  int* d; cudaMallocManaged(&d, 32 * sizeof(int));
  k1<int, (big > 2 ? 7 : 1)><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("k1 %d\n", d[0]);
  // OUTPUT: k1 7
  k1<int, (big >> 1)><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("k1b %d\n", d[0]);
  // OUTPUT: k1b 2
  outer::inner::nk<int><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("nk %d\n", d[0]);
  // OUTPUT: nk 3
  outer::inner::nk<<<1, 32>>>(d); cudaDeviceSynchronize(); printf("nk2 %d\n", d[0]);
  // OUTPUT: nk2 4
  holder::sk<<<1, 32>>>(d); cudaDeviceSynchronize(); printf("sk %d\n", d[0]);
  // OUTPUT: sk 104
  holder::tk<3><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("tk %d\n", d[0]);
  // OUTPUT: tk 107
  pk<pair_t<int, pair_t<char, double>>><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("pk %d\n", d[0]);
  // OUTPUT: pk 131
  shared_sizes<32><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("ss %d\n", d[0]);
  // OUTPUT: ss 34
  multi_extern<<<1, 32, 128>>>(d); cudaDeviceSynchronize(); printf("me %d\n", d[0]);
  // OUTPUT: me 1
  deduce<<<1, 32, 32 * 8>>>(d); cudaDeviceSynchronize(); printf("de %d\n", d[31]);
  // OUTPUT: de 7
  LAUNCH(holder::sk, 1, 32, d); cudaDeviceSynchronize(); printf("mac %d\n", d[0]);
  // OUTPUT: mac 107
  LAUNCH_T(int)(d); cudaDeviceSynchronize(); printf("lt %d\n", d[0]);
  // OUTPUT: lt 3
  partial<5><<<1, 32>>>(d, 2); cudaDeviceSynchronize(); printf("partial %d\n", d[0]);
  // OUTPUT: partial 7
  variadic<100><<<1, 32>>>(d, 1, 2, 3); cudaDeviceSynchronize(); printf("variadic %d\n", d[0]);
  // OUTPUT: variadic 106
  cudaFuncSetAttribute(big_shared<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  big_shared<4><<<1, 32, 64 * 1024>>>(d, 32); cudaDeviceSynchronize();
  printf("big %d %s\n", d[0], cudaGetErrorString(cudaGetLastError()));
  // OUTPUT: big 36 no error
  tagged<A><<<1, 32>>>(d); cudaDeviceSynchronize(); printf("tagged %d\n", d[0]);
  // OUTPUT: tagged 9
  class_shared<<<1, 32>>>(d); cudaDeviceSynchronize(); printf("class_shared %d %d\n", d[0], d[31]);
  // OUTPUT: class_shared 136 43

  // 32 ints, 32 floats, 65 doubles: 128 + 128 + 520 bytes (known before the
  // first launch too where cusim-cc has its front end:
  // diff.runtime.static_shared_before_launch).
  cudaFuncAttributes at; cudaFuncGetAttributes(&at, shared_sizes<32>);
  printf("static %zu\n", at.sharedSizeBytes);
  // OUTPUT: static 776
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  // OUTPUT: no error
}
