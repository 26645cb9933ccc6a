// <nvToolsExtCudaRt.h>: as older toolkits name it (nvtx3/nvToolsExtCudaRt.h).
#pragma once
#include "nvtx3/nvToolsExtCudaRt.h"
