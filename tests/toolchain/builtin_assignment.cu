// Device code cannot assign a built-in variable: CUDA declares blockIdx,
// blockDim and gridDim const (device_launch_parameters.h), and nvcc refuses
// this file at line 7, as cusim-cc must.
#include <cuda_runtime.h>

__global__ void move_block(int* out) {
  blockIdx.x = 3;
  out[0] = blockIdx.x;
}
