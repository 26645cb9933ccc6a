// Where clang's marks of __shared__ uses cannot all be placed in the
// preprocessed text, the variable keeps the rewriter's own form, never a view
// with a use left unmarked (whose sizeof would be the view's): a use a macro
// duplicates, a use in another declaration's bound or in inline PTX's
// operands. And what the marks must not do: mark a member that a macro
// moved into the count, take a callee for the wrong <<< (one in a string) or
// the tail of a qualified name. The view works in a local class of a kernel
// template. nvcc 13 builds this file (nvcc.build.shared_front_end_fallbacks),
// and on an H200 it prints the same line.
#include <cstdio>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define FIRST_OF(h) (h).cells[0]
#define IGNORED(x) 0

struct holder { int cells[4]; };
__shared__ int cells[4];

template <class T> __device__ T first(T* p) { return *p; }

__global__ void counted(int* out, int mode) {
  if (mode > 1) goto done;  // a goto: the variables would be views
  {
    __shared__ int tile[32];
    // CHECK: ::std::type_identity_t<int[32]>& tile = *static_cast
    __shared__ int copy[sizeof(tile) / sizeof(int)];
    int n = 0;
    for (unsigned i = 0; i < COUNT_OF(tile); ++i) ++n;
    unsigned v = threadIdx.x;
    asm("mov.u32 %0, %1;" : "=r"(copy[threadIdx.x]) : "r"(v));
    tile[threadIdx.x] = n + copy[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[0] = tile[31] + int(sizeof(copy));
  }
done:
  return;
}

__global__ void members(holder h, int* out) {
  if (threadIdx.x == 0) cells[1] = 5;
  __syncthreads();
  if (threadIdx.x == 0) out[1] = FIRST_OF(h) + cells[1] + IGNORED(cells);
  // The marks' count lands on the member: not taken; the namespace-scope
  // view serves the use unmarked, as without the marks.
  // CHECK: (h).cells[0] + cells[1] + 0;
}

template <int N>
__global__ void in_local_class(int* out, int mode) {
  struct local {
    __device__ static int run(int m) {
      if (m) goto end;
      {
        __shared__ int t[N];
        t[0] = 7;
        return first(t);
      }
    end:
      return 0;
    }
  };
  out[2] = local::run(mode);
}

__global__ void one(int* p) { p[3] += 1; }
using kernel_pointer = void (*)(int*);
namespace ns { kernel_pointer pick(int) { return one; } }
kernel_pointer pick(int) { return one; }

int main() {
  int* out;
  cudaMallocManaged(&out, 4 * sizeof(int));
  out[3] = 0;
  counted<<<1, 32>>>(out, 0);
  members<<<1, 32>>>(holder{{10, 0, 0, 0}}, out);
  in_local_class<4><<<1, 1>>>(out, 0);
  std::puts("<<<"); ns::pick(1)<<<1, 1>>>(out); pick(2)<<<1, 1>>>(out);
  // CHECK: ns::pick(1)
  cudaDeviceSynchronize();
  printf("%s: %d %d %d %d\n", cudaGetErrorName(cudaGetLastError()), out[0], out[1], out[2], out[3]);
  // OUTPUT: cudaSuccess: 191 15 7 2
}
