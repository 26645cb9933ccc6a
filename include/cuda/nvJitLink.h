// <nvJitLink.h>: nvJitLink, not provided (docs/libraries.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <nvJitLink.h> is nvJitLink (linking GPU code at run time); cusim runs CUDA source compiled ahead of time on the CPU and does not provide it (see docs/libraries.md)"
