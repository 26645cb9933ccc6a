// <nvrtc.h>: NVRTC, not provided (docs/libraries.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <nvrtc.h> is NVRTC (compiling CUDA source at run time into GPU code); cusim runs CUDA source compiled ahead of time on the CPU and does not provide it (see docs/libraries.md)"
