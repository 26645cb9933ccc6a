// Plain C++, compiled by CMake's C++ compiler, linked with the .cu objects.
#include <cstdio>

int report(int failures, int n) {
  std::printf("consumer: %d of %d elements wrong: %s\n", failures, n, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
