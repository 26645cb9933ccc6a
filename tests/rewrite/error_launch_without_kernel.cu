// '<<<' with nothing to launch before it.
#include <cuda_runtime.h>

int main() {
  int x = (<<<1, 1>>>());
  return x;
}
// ERROR: error_launch_without_kernel.cu:5:12: error: a <<<...>>> launch with no kernel before it
