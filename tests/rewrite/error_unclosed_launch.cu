// A launch whose configuration never closes: cusim-cc names the file, line
// and column of the '<<<' instead of writing wrong code.
#include <cuda_runtime.h>

__global__ void k(int n) {}

int main() {
  k<<<1, 32(5);
  return 0;
}
// ERROR: error_unclosed_launch.cu:8:4: error: a kernel launch 'k<<<' has no closing '>>>'
