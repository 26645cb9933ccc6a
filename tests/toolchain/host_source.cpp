// A host source (.cpp) that cusim-cc passes to the host compiler, as nvcc
// does, including standard headers after cuda_runtime.h: GCC's <memory>
// writes __attribute__((__noinline__)), which a __noinline__ macro broke
// (cuda-samples' deviceQuery.cpp).
#include <cuda_runtime.h>
#include <memory>
#include <string>

int device_count_text_length() {
  int count = 0;
  cudaGetDeviceCount(&count);
  return static_cast<int>(std::make_unique<std::string>(std::to_string(count))->size());
}
