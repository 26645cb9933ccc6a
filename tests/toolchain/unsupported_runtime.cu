// A runtime function cusim does not provide (inter-process handles) stops
// the build at the call, naming the function and why
// (toolchain.unsupported_runtime_call_is_named).
#include <cuda_runtime.h>

int main() {
  int* p = nullptr;
  cudaMalloc(&p, sizeof(int));
  cudaIpcMemHandle_t handle;
  cudaIpcGetMemHandle(&handle, p);
  return 0;
}
