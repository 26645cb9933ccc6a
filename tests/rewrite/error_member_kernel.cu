// nvcc refuses a kernel that is a member of a class, static or not; so does
// cusim-cc, with nvcc's reason, so that a program that builds here builds
// for a GPU too.
#include <cuda_runtime.h>

struct holder {
  static __global__ void as_static_member(int* out) { out[0] = 1; }
};
// ERROR: error_member_kernel.cu:7:10: error: a __global__ function cannot be a member function (nvcc: "A __global__ function or function template cannot be a member function"): declare the kernel at namespace scope

int main() { return 0; }
