// The device runtime's API table (dynamic parallelism appendix): the calls
// device code may make besides launches, and what they answer there.
// Build with nvcc: -rdc=true -lcudadevrt.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void some_kernel(int* p) { p[threadIdx.x] = 1; }
__global__ void store(int* p, char tag, double value) { p[threadIdx.x] = int(value) + tag; }

// The low-level launch: arguments packed into a parameter buffer, each at
// the next offset aligned for its type (8, 1 then 8 bytes here).
__global__ void launch_through_parameter_buffer(int* p, long long* result) {
  void* buffer = cudaGetParameterBuffer(8, 24);
  *static_cast<int**>(buffer) = p;
  *(static_cast<char*>(buffer) + 8) = 2;
  *reinterpret_cast<double*>(static_cast<char*>(buffer) + 16) = 40.0;
  *result = cudaLaunchDevice((void*)store, buffer, dim3(1), dim3(4), 0, 0);
}

__global__ void ask(long long* answers, char* message) {
  int value = -1;
  cudaGetDeviceCount(&value);
  answers[0] = value;
  cudaGetDevice(&value);
  answers[1] = value;
  cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0);
  answers[2] = value;
  cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, 0);
  answers[3] = value;
  size_t limit = 0;
  answers[4] = cudaDeviceGetLimit(&limit, cudaLimitStackSize);
  answers[5] = (long long)limit;
  cudaFuncCache cache = cudaFuncCachePreferL1;
  answers[6] = cudaDeviceGetCacheConfig(&cache);
  answers[7] = cache;
  cudaFuncAttributes attributes{};
  answers[8] = cudaFuncGetAttributes(&attributes, some_kernel);
  answers[9] = attributes.maxThreadsPerBlock;
  cudaRuntimeGetVersion(&value);
  answers[10] = value;
  int blocks = 0;
  answers[11] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, some_kernel, 256, 0);
  answers[12] = blocks;
  void* allocated = nullptr;
  answers[13] = cudaMalloc(&allocated, 256);
  answers[14] = allocated != nullptr;
  if (allocated != nullptr) {
    static_cast<int*>(allocated)[63] = 7;
    answers[15] = static_cast<int*>(allocated)[63];
    answers[16] = cudaFree(allocated);
  }
  const char* text = cudaGetErrorString(cudaErrorInvalidValue);
  int i = 0;
  for (; text[i] != 0 && i < 63; ++i) message[i] = text[i];
  message[i] = 0;
}

int main() {
  long long* answers;
  char* message;
  cudaMallocManaged(&answers, 32 * sizeof(long long));
  cudaMallocManaged(&message, 64);
  for (int i = 0; i < 32; ++i) answers[i] = -99;
  ask<<<1, 1>>>(answers, message);
  const cudaError_t e = cudaDeviceSynchronize();
  int* stored;
  cudaMallocManaged(&stored, 4 * sizeof(int));
  launch_through_parameter_buffer<<<1, 1>>>(stored, &answers[20]);
  const cudaError_t e2 = cudaDeviceSynchronize();
  std::printf("cudaLaunchDevice: %lld, stored %d %d %d %d (%s)\n", answers[20], stored[0], stored[1], stored[2],
              stored[3], cudaGetErrorName(e2));
  int host_sms = 0;
  cudaDeviceGetAttribute(&host_sms, cudaDevAttrMultiProcessorCount, 0);
  std::printf("synchronize: %s\n", cudaGetErrorName(e));
  std::printf("device count %lld, device %lld, SMs %lld (host says %d), max threads per block %lld\n", answers[0],
              answers[1], answers[2], host_sms, answers[3]);
  std::printf("stack limit: %lld, %lld bytes\n", answers[4], answers[5]);
  std::printf("cache config: %lld, %lld\n", answers[6], answers[7]);
  std::printf("function attributes: %lld, max threads %lld\n", answers[8], answers[9]);
  int host_version = 0;
  cudaRuntimeGetVersion(&host_version);
  // The device runtime answers with its own version (6000 on an H100 with CUDA 13).
  std::printf("runtime version: %lld in device code, %d on the host\n", answers[10], host_version);
  std::printf("occupancy: %lld, %lld blocks of 256\n", answers[11], answers[12]);
  std::printf("device cudaMalloc: %lld, non-null %lld, wrote and read %lld, cudaFree %lld\n", answers[13],
              answers[14], answers[15], answers[16]);
  std::printf("error string: %s\n", message);
  const bool ok = e == cudaSuccess && e2 == cudaSuccess && answers[20] == 0 && stored[0] == 42 && stored[3] == 42 && answers[0] == 1 && answers[1] == 0 && answers[2] == host_sms &&
                  answers[3] == 1024 && answers[4] == 0 && answers[6] == 0 && answers[8] == 0 && answers[9] == 1024 &&
                  answers[10] == 6000 && answers[11] == 0 && answers[12] > 0 && answers[13] == 0 && answers[14] == 1 &&
                  answers[15] == 7 && answers[16] == 0;
  std::printf("device runtime API: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
