// Inline PTX outside what cusim runs is a compile error at the asm
// statement's line that names the instruction (docs/inline-ptx.md), not the
// host assembler's complaint about PTX it cannot read.
#include <cuda_runtime.h>

__global__ void tensor_cores(float* out) {
  float d;
  asm volatile("wgmma.fence.sync.aligned;");
  out[0] = d;
}
// ERROR: error_inline_ptx.cu:8:3: error: inline PTX: cusim does not run the instruction 'wgmma' (docs/inline-ptx.md lists the instructions and forms it runs)

int main() { return 0; }
