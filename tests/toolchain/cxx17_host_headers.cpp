// A project's plain C++17 files include CUDA's host-side headers (compiled
// by the host compiler with the toolkit's include directory, as CMake's
// CUDA::cudart gives them): cusim's versions must compile as C++17 too.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <curand.h>
#include <device_launch_parameters.h>
#include <driver_types.h>
#include <math_constants.h>
#include <vector_functions.h>
#include <vector_types.h>

int main() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && __float_as_int(CUDART_ONE_F) == 0x3f800000 ? 0 : 1;
}
