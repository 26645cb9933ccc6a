// <nvToolsExt.h>: NVTX as older toolkits name it (nvtx3/nvToolsExt.h).
#pragma once
#include "nvtx3/nvToolsExt.h"
