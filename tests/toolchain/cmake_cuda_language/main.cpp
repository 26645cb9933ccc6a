#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int scale_on_device(float* host, float factor, int n);

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::vector<float> values(1000);
  for (int i = 0; i < 1000; ++i) values[i] = static_cast<float>(i);
  if (scale_on_device(values.data(), 2.0f, 1000) != 0) return 1;
  for (int i = 0; i < 1000; ++i) {
    if (values[i] != 2.0f * static_cast<float>(i)) {
      std::printf("FAILED at %d: %f\n", i, values[i]);
      return 1;
    }
  }
  std::printf("%s (sm_%d%d): PASSED\n", prop.name, prop.major, prop.minor);
  return 0;
}
