// Headers that older CUDA code includes by name (math_functions.h,
// sm_32_intrinsics.h, device_functions.h, ...), and NVTX's annotations,
// which run as on a GPU without a profiler: every call accepted, nothing
// recorded, push and pop answering NVTX_NO_PUSH_POP_TRACKING.
#include <cstdio>
#include <device_functions.h>
#include <math_functions.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <sm_20_atomic_functions.h>
#include <sm_32_intrinsics.h>

__global__ void uses_older_headers(const float* in, float* out, int* count) {
  out[threadIdx.x] = __ldg(&in[threadIdx.x]) + sqrtf(4.0f);
  atomicAdd(count, 1);
}

int main() {
  float *in, *out;
  int* count;
  cudaMallocManaged(&in, 32 * sizeof(float));
  cudaMallocManaged(&out, 32 * sizeof(float));
  cudaMallocManaged(&count, sizeof(int));
  for (int i = 0; i < 32; ++i) in[i] = float(i);
  *count = 0;
  nvtxNameOsThreadA(0, "main");
  nvtxNameCudaDeviceA(0, "the device");
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xff00ff00u;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "kernel";
  const int level = nvtxRangePushEx(&attributes);
  const nvtxRangeId_t range = nvtxRangeStartA("launch");
  uses_older_headers<<<1, 32>>>(in, out, count);
  cudaDeviceSynchronize();
  nvtxRangeEnd(range);
  nvtxMarkA("done");
  const int popped = nvtxRangePop();
  std::printf("out[5] %.1f count %d push %d pop %d\n", out[5], *count, level, popped);
  return 0;
}
