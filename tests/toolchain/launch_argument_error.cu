// Must not compile: a launch whose argument does not convert to the
// kernel's parameter (line 12). The host compiler reports it deep inside
// cusim's launcher; clang's front end reads the file as CUDA and names the
// conversion at the argument, with a caret, as nvcc does ("argument of type
// "const char *" is incompatible with parameter of type "int""). Its
// message comes last, where a terminal shows it.
#include <cuda_runtime.h>

__global__ void scale(float* data, int factor) { data[threadIdx.x] *= float(factor); }

void run(float* data) {
  scale<<<1, 32>>>(data, "two");
}
