// Declares threadIdx, blockIdx, blockDim, gridDim and warpSize, as the CUDA
// header of the same name does. cuda_runtime.h already provides them.
#pragma once
#include <cusim/detail/builtins.hpp>
