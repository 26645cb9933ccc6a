// <cudaVDPAU.h>: VDPAU interoperability (driver API), not provided (docs/api-coverage.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <cudaVDPAU.h> is VDPAU interoperability (driver API), which shares GPU memory with a graphics API; cusim has no GPU and does not provide it (see docs/api-coverage.md)"
