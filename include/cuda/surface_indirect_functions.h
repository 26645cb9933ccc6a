// CUDA has the texture and surface functions here; cusim has them in
// <cusim/detail/texture_functions.hpp>, which cuda_runtime.h includes.
#pragma once
#include <cuda_runtime.h>
