// <cufft.h>: cuFFT's host API, not provided (docs/libraries.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <cufft.h> is cuFFT's host API, which runs NVIDIA's precompiled GPU kernels; cusim runs CUDA source on the CPU and does not provide it (see docs/libraries.md)"
