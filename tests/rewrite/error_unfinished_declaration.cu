// A __shared__ declaration that never ends.
#include <cuda_runtime.h>

__global__ void k() {
  __shared__ float tile[32]
}
// ERROR: error_unfinished_declaration.cu:5:3: error: a __shared__ or __constant__ declaration without a ';'
