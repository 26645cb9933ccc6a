// A launch needs a grid and a block: nvcc refuses an empty configuration too.
#include <cuda_runtime.h>

__global__ void k() {}

int main() {
  k<<<>>>();
  return 0;
}
// ERROR: error_empty_configuration.cu:7:4: error: the kernel launch 'k<<<>>>' has no configuration (grid and block)
// The line, with a caret under the launch:
// ERROR: 7 | k<<<>>>(); | ^
