// Declares threadIdx, blockIdx, blockDim, gridDim and warpSize, as the CUDA
// header of the same name does. cuda_runtime.h already provides them.
#pragma once
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#endif
#include <cusim/detail/builtins.hpp>
