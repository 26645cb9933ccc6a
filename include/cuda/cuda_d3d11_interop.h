// <cuda_d3d11_interop.h>: Direct3D 11 interoperability, not provided (docs/api-coverage.md).
// cusim stops the build here, naming what is missing, rather than let the
// compiler find another toolkit's header or report names it never declared.
#pragma once
#error "cusim: <cuda_d3d11_interop.h> is Direct3D 11 interoperability, which shares GPU memory with a graphics API; cusim has no GPU and does not provide it (see docs/api-coverage.md)"
