// Surface objects: CUDA arrays read and written by coordinates, without
// filtering (src/api/textures.cpp, docs/textures.md).
#pragma once
#include "texture_types.h"

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

typedef unsigned long long cudaSurfaceObject_t;
