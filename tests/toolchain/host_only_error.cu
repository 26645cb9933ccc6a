// Must not compile, with two errors: one both compilers see (line 17), and
// one only the host compiler sees (line 13: clang, which reads the file for
// cusim-cc's front end, defines __clang__). cusim-cc shows clang's errors
// alone only where they account for all of the host compiler's; here the
// host compiler's messages come first, whole, and clang's after them.
#include <cuda_runtime.h>

__global__ void fill(int* out) { out[threadIdx.x] = 1; }

#ifndef __clang__
template <class T>
struct host_only {
  static_assert(sizeof(T) == 0, "only the host compiler sees this");
};
template struct host_only<int>;
#endif
int not_a_number = "seventeen";
