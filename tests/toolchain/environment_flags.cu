// Built with NVCC_PREPEND_FLAGS="-DFIRST=1", the command line's
// -DBOTH=2 and NVCC_APPEND_FLAGS="-UBOTH -DBOTH=3": the environment's options
// come before and after the command line's, as nvcc reads them.
#include <cstdio>

int main() {
  std::printf("first %d, both %d\n", FIRST, BOTH);
  return 0;
}
