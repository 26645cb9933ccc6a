// <cuda_vdpau_interop.h>: VDPAU interoperability, not provided (docs/api-coverage.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <cuda_vdpau_interop.h> is VDPAU interoperability, which shares GPU memory with a graphics API; cusim has no GPU and does not provide it (see docs/api-coverage.md)"
