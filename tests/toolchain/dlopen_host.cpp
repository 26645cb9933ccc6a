// Loads the library dlopen_library.cu builds (argv[1]) and runs its kernels.
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::printf("dlopen: %s\n", dlerror());
    return 1;
  }
  auto sum_in_blocks = reinterpret_cast<int (*)(int)>(dlsym(library, "sum_in_blocks"));
  if (sum_in_blocks == nullptr) return 1;
  int expected = 0;
  for (int i = 0; i < 64 * 256; ++i) expected += i % 7;
  const int total = sum_in_blocks(64);
  std::printf("sum %d, expected %d\n", total, expected);
  return total == expected ? 0 : 1;
}
